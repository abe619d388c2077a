import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, newBot, ok, post } from '../bots.testkit.js'

describe('createBot (POST /bots) and getBot', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('creates a draft with documented defaults, readable by id, with its event', async () => {
    const bot = await newBot(h, { description: 'Answers orders' })
    assert.match(bot.id, /^bot_/)
    assert.equal(bot.object, 'bot')
    assert.equal(bot.status, 'draft')
    assert.equal(bot.published_version_id, null)
    assert.equal(bot.version_count, 0)
    assert.equal(bot.has_unpublished_changes, false)
    assert.deepEqual(bot.channels, ['chat'])
    assert.equal(bot.language, 'en')
    assert.deepEqual(bot.handoff, { confidence_threshold: 0.5, action: 'tag', assignee_id: null, tag: null })
    assert.deepEqual(bot.ai, { provider: null, temperature: null })
    assert.deepEqual(await ok(get(h, `/bots/${bot.id}`)), bot)
    assert.ok((await events(h, 'bot.created')).some((e) => e.id === bot.id))
  })

  it('links knowledge bases of the workspace; an unknown one is a 422 pointing at it', async () => {
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Docs' }), 201)
    const bot = await newBot(h, { knowledge_base_ids: [kb.id] })
    assert.deepEqual(bot.knowledge_base_ids, [kb.id])
    const r = await post(h, '/bots', { name: 'X', knowledge_base_ids: [kb.id, 'kb_nope'] })
    assertProblem(r, 422, 'unknown_knowledge_base')
    assert.equal(JSON.parse(r.body).errors[0].pointer, '/body/knowledge_base_ids/1')
    // Another workspace's base is unknown here too.
    const other = await ok(post(h, '/knowledge/bases', { name: 'Theirs' }, { key: h.b.live }), 201)
    assertProblem(await post(h, '/bots', { name: 'X', knowledge_base_ids: [other.id] }), 422, 'unknown_knowledge_base')
  })

  it('checks the hand-off target: assign needs an active member, a tag must exist', async () => {
    const r = await post(h, '/bots', { name: 'X', handoff: { action: 'assign' } })
    assertProblem(r, 422, 'validation_failed')
    assert.equal(JSON.parse(r.body).errors[0].pointer, '/body/handoff/assignee_id')
    assertProblem(await post(h, '/bots', { name: 'X', handoff: { action: 'assign', assignee_id: 'mem_01JD0000000000000000000000' } }), 422, 'assignee_not_member')
    assertProblem(await post(h, '/bots', { name: 'X', handoff: { tag: 'needs-human' } }), 422, 'unknown_tag')
    await ok(post(h, '/inbox/tags', { name: 'needs-human' }), 201)
    const bot = await newBot(h, { handoff: { tag: 'needs-human', confidence_threshold: 0.7 } })
    assert.equal(bot.handoff.tag, 'needs-human')
    assert.equal(bot.handoff.confidence_threshold, 0.7)
  })

  it('rejects bad input with problems and keeps bots apart per workspace and mode', async () => {
    assertProblem(await post(h, '/bots', {}), 422)
    assertProblem(await post(h, '/bots', { name: 'X', channels: ['pigeon'] }), 422)
    assertProblem(await post(h, '/bots', { name: 'X', handoff: { confidence_threshold: 2 } }), 422)
    assertProblem(await post(h, '/bots', { name: 'X', ai: { temperature: 5 } }), 422)
    const bot = await newBot(h)
    assertProblem(await get(h, `/bots/${bot.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/bots/${bot.id}`, key: h.a.test }), 404, 'resource_not_found')
  })

  it('refuses an openai override when the server has no openai provider', async () => {
    // The builtin provider is always available; openai is the operator's to configure.
    assert.equal((await newBot(h, { ai: { provider: 'builtin' } })).ai.provider, 'builtin')
    const r = await post(h, '/bots', { name: 'X', ai: { provider: 'openai' } })
    assertProblem(r, 422)
    assert.equal(JSON.parse(r.body).errors[0].pointer, '/body/ai/provider')
  })
})
