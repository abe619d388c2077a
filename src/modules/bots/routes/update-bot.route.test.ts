import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, newBot, ok, patch, post } from '../bots.testkit.js'

describe('updateBot (PATCH /bots/{id}), listBots and deleteBot', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('edits the draft; a published bot then has unpublished changes until the next publish', async () => {
    const bot = await newBot(h)
    const live = await ok(post(h, `/bots/${bot.id}/publish`))
    assert.equal(live.status, 'published')
    assert.equal(live.has_unpublished_changes, false)
    const edited = await ok(patch(h, `/bots/${bot.id}`, { instructions: 'Be terse.', name: 'Renamed' }))
    assert.equal(edited.instructions, 'Be terse.')
    assert.equal(edited.name, 'Renamed')
    assert.equal(edited.status, 'published')
    assert.equal(edited.published_version_id, live.published_version_id)
    assert.equal(edited.has_unpublished_changes, true)
    // Renaming alone is not a configuration change a version holds.
    const renamed = await ok(patch(h, `/bots/${live.id}`, { instructions: 'You are a helpful support assistant. Answer only from the knowledge you are given.' }))
    assert.equal(renamed.has_unpublished_changes, false)
    assert.ok((await events(h, 'bot.updated')).some((e) => e.id === bot.id && e.instructions === 'Be terse.'))
  })

  it('merges partial hand-off and AI settings; an empty body is a 422', async () => {
    const bot = await newBot(h, { handoff: { confidence_threshold: 0.8 } })
    const next = await ok(patch(h, `/bots/${bot.id}`, { ai: { temperature: 0.2 } }))
    assert.equal(next.handoff.confidence_threshold, 0.8)
    assert.deepEqual(next.ai, { provider: null, temperature: 0.2 })
    assertProblem(await patch(h, `/bots/${bot.id}`, {}), 422)
    assertProblem(await patch(h, `/bots/${bot.id}`, { knowledge_base_ids: ['kb_missing'] }), 422, 'unknown_knowledge_base')
    assertProblem(await patch(h, `/bots/${bot.id}`, { name: 'X' }, h.b.live), 404)
  })

  it('lists newest first with a status filter', async () => {
    const draft = await newBot(h, { name: 'Draft one' })
    const pub = await newBot(h, { name: 'Published one' })
    await ok(post(h, `/bots/${pub.id}/publish`))
    const archived = await newBot(h, { name: 'Archived one' })
    await ok(patch(h, `/bots/${archived.id}`, { archived: true }))
    const all = await ok(get(h, '/bots?limit=100'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.slice(0, 3).map((b: any) => b.id),
      [archived.id, pub.id, draft.id],
    )
    const ids = (q: string) => ok(get(h, `/bots?status=${q}&limit=100`)).then((p) => p.data.map((b: any) => b.id))
    assert.ok((await ids('draft')).includes(draft.id) && !(await ids('draft')).includes(pub.id))
    assert.ok((await ids('published')).includes(pub.id))
    assert.deepEqual(
      (await ids('archived')).filter((id: string) => [draft.id, pub.id, archived.id].includes(id)),
      [archived.id],
    )
    assert.equal((await ok(get(h, '/bots', h.b.live))).data.length, 0)
  })

  it('archives: an archived bot answers nothing and cannot be published; it can come back', async () => {
    const bot = await newBot(h)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const archived = await ok(patch(h, `/bots/${bot.id}`, { archived: true }))
    assert.equal(archived.status, 'archived')
    assertProblem(await post(h, `/bots/${bot.id}/messages`, { content: 'hello' }), 409, 'bot_archived')
    assertProblem(await post(h, `/bots/${bot.id}/publish`), 409, 'bot_archived')
    assert.equal((await ok(patch(h, `/bots/${bot.id}`, { archived: false }))).status, 'published')
  })

  it('deletes a draft at once; a live bot must be archived first', async () => {
    const draft = await newBot(h)
    assert.deepEqual(await ok(h.request({ method: 'DELETE', url: `/v2/bots/${draft.id}` })), { id: draft.id, object: 'bot', deleted: true })
    assertProblem(await get(h, `/bots/${draft.id}`), 404)
    const live = await newBot(h)
    await ok(post(h, `/bots/${live.id}/publish`))
    assertProblem(await h.request({ method: 'DELETE', url: `/v2/bots/${live.id}` }), 409, 'bot_is_live')
    await ok(patch(h, `/bots/${live.id}`, { archived: true }))
    await ok(h.request({ method: 'DELETE', url: `/v2/bots/${live.id}` }))
    assertProblem(await get(h, `/bots/${live.id}/versions`), 404)
    assertProblem(await h.request({ method: 'DELETE', url: `/v2/bots/${live.id}` }), 404)
    assert.ok((await events(h, 'bot.deleted')).some((e) => e.id === live.id))
  })
})
