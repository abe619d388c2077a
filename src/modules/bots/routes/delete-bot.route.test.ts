import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, newBot, ok, patch, post } from '../bots.testkit.js'

const del = (h: TestApp, id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/bots/${id}`, ...(key ? { key } : {}) })

describe('deleteBot (DELETE /bots/{id})', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('deletes a draft with its versions; a published bot must be archived first (409 bot_is_live)', async () => {
    const draft = await newBot(h)
    await ok(post(h, `/bots/${draft.id}/versions`, { note: 'kept until the bot goes' }), 201)
    assert.deepEqual(await ok(del(h, draft.id)), { id: draft.id, object: 'bot', deleted: true })
    assertProblem(await get(h, `/bots/${draft.id}`), 404)
    assert.equal((await h.app.kernel.db.selectFrom('bot_versions').select('id').where('bot_id', '=', draft.id).execute()).length, 0)
    assert.ok((await events(h, 'bot.deleted')).some((e) => e.id === draft.id))

    const live = await newBot(h)
    await ok(post(h, `/bots/${live.id}/publish`))
    assertProblem(await del(h, live.id), 409, 'bot_is_live')
    assert.equal((await ok(get(h, `/bots/${live.id}`))).status, 'published', 'a refused delete changes nothing')
    await ok(patch(h, `/bots/${live.id}`, { archived: true }))
    await ok(del(h, live.id))
    assertProblem(await del(h, live.id), 404, 'resource_not_found')
  })

  it("another workspace's bot is 404 and stays; bots:write is required", async () => {
    const bot = await newBot(h)
    assertProblem(await del(h, bot.id, h.b.live), 404, 'resource_not_found')
    assertProblem(await del(h, bot.id, await h.key(['bots:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/bots/${bot.id}`))).id, bot.id)
    assertProblem(await del(h, 'x'.repeat(65)), 422, 'validation_failed')
  })
})
