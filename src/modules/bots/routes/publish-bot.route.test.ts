import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, helpCenter, newBot, ok, patch, post, say } from '../bots.testkit.js'

describe('versions: createBotVersion, listBotVersions, publishBot, rollbackBotVersion', () => {
  let h: TestApp
  let kb: any
  before(async () => {
    h = await botsApp()
    ;({ kb } = await helpCenter(h))
  })
  after(() => h.close())

  it('freezes numbered versions that never change when the draft is edited', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], instructions: 'Version one rules.' })
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'First' }), 201)
    assert.match(v1.id, /^bver_/)
    assert.equal(v1.number, 1)
    assert.equal(v1.note, 'First')
    assert.equal(v1.author.type, 'api_key')
    assert.equal(v1.live, false)
    assert.equal(v1.config.instructions, 'Version one rules.')
    assert.deepEqual(v1.config.knowledge_base_ids, [kb.id])
    assert.equal(v1.config.guardrails.answer_only_when_grounded, true)
    await ok(patch(h, `/bots/${bot.id}`, { instructions: 'Changed later.', knowledge_base_ids: [] }))
    await ok(h.request({ method: 'PATCH', url: `/v2/bots/${bot.id}/guardrails`, payload: { blocked_terms: ['refund'] } }))
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    assert.equal(v2.number, 2)
    assert.equal(v2.note, null)
    const list = await ok(get(h, `/bots/${bot.id}/versions`))
    assert.deepEqual(
      list.data.map((v: any) => v.number),
      [2, 1],
    )
    // Version 1 is exactly what it was.
    assert.deepEqual(list.data[1], v1)
    assert.equal(list.data[0].config.instructions, 'Changed later.')
    assert.deepEqual(list.data[0].config.guardrails.blocked_terms, ['refund'])
    assert.equal((await ok(get(h, `/bots/${bot.id}`))).version_count, 2)
    assert.ok((await events(h, 'bot_version.created')).some((e) => e.id === v2.id))
  })

  it('publish and rollback switch the version sendBotMessage answers with', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id] })
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'with knowledge' }), 201)
    await ok(patch(h, `/bots/${bot.id}`, { knowledge_base_ids: [] }))
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'without knowledge' }), 201)
    assertProblem(await say(h, bot.id, 'How long does delivery take?'), 409, 'bot_not_published')

    // Default: the latest version.
    const live2 = await ok(post(h, `/bots/${bot.id}/publish`))
    assert.equal(live2.published_version_id, v2.id)
    const a2 = await ok(say(h, bot.id, 'How long does delivery take to France?'), 201)
    assert.equal(a2.version_id, v2.id)
    assert.equal(a2.handoff, true, 'no knowledge: the bot hands off')

    const back = await ok(post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`))
    assert.equal(back.published_version_id, v1.id)
    const a1 = await ok(say(h, bot.id, 'How long does delivery take to France?'), 201)
    assert.equal(a1.version_id, v1.id)
    assert.equal(a1.handoff, false, a1.content)
    assert.ok(a1.citations.length > 0)
    const versions = await ok(get(h, `/bots/${bot.id}/versions`))
    assert.deepEqual(
      versions.data.map((v: any) => [v.number, v.live]),
      [
        [2, false],
        [1, true],
      ],
    )
    const rolled = (await events(h, 'bot.rolled_back')).find((e) => e.bot_id === bot.id)
    assert.equal(rolled.version_id, v1.id)
    assert.equal(rolled.previous_version_id, v2.id)

    // Forward again by name; publishing the live version again changes nothing.
    assert.equal((await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v2.id }))).published_version_id, v2.id)
    const again = await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v2.id }))
    assert.equal(again.published_version_id, v2.id)
    assert.equal((await events(h, 'bot.published')).filter((e) => e.bot_id === bot.id).length, 2)
  })

  it('a first publish freezes the draft as version 1', async () => {
    const bot = await newBot(h)
    const live = await ok(post(h, `/bots/${bot.id}/publish`))
    assert.equal(live.version_count, 1)
    const [v] = (await ok(get(h, `/bots/${bot.id}/versions`))).data
    assert.equal(v.id, live.published_version_id)
    assert.equal(v.live, true)
  })

  it('refuses rollbacks that are not rollbacks, and versions of other bots', async () => {
    const bot = await newBot(h)
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`), 409, 'bot_not_published')
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v1.id }))
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`), 409, 'not_an_earlier_version')
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v2.id}/rollback`), 409, 'not_an_earlier_version')
    const other = await newBot(h)
    const foreign = await ok(post(h, `/bots/${other.id}/versions`), 201)
    assertProblem(await post(h, `/bots/${bot.id}/versions/${foreign.id}/rollback`), 404, 'resource_not_found')
    assertProblem(await post(h, `/bots/${bot.id}/publish`, { version_id: foreign.id }), 422, 'invalid_reference')
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`, {}, { key: h.b.live }), 404)
  })
})
