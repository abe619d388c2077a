import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, events, get, ok, patch, post, type ComplianceApp } from '../compliance.testkit.js'

describe('getRetentionPolicies / updateRetentionPolicies and enforcement', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('lists every class with its minimum; keep by default; the Playground fixed', async () => {
    const r = await ok(get(h, '/compliance/retention'))
    const names = r.classes.map((c: any) => c.name)
    for (const n of ['messages', 'call_recordings', 'transcripts', 'webhook_deliveries', 'audit_log', 'dsar_exports', 'api_logs', 'playground', 'bot_test_exchanges']) assert.ok(names.includes(n), n)
    assert.equal(r.policies.messages, 'keep')
    assert.equal(r.classes.find((c: any) => c.name === 'audit_log').minimum_days, 365)
    assert.equal(r.classes.find((c: any) => c.name === 'playground').fixed, true)
  })

  it('retention deletes exactly what the dry run predicted, and records the run', async () => {
    // Conversations of different ages: 5 old (40 days), 3 recent.
    for (let i = 0; i < 5; i++) await ok(post(h, '/inbox/conversations', { message: { content: `old ${i}` } }), 201)
    h.clock.advance(35 * 86400_000)
    for (let i = 0; i < 3; i++) await ok(post(h, '/inbox/conversations', { message: { content: `new ${i}` } }), 201)
    h.clock.advance(5 * 86400_000)
    const dry = await ok(patch(h, '/compliance/retention', { policies: { messages: 30 }, dry_run: true }))
    // 5 conversations, and the conversation.created and message.created events that copy them.
    assert.equal(dry.dry_run.messages, 15)
    assert.equal((await ok(get(h, '/compliance/retention'))).policies.messages, 'keep', 'a dry run saves nothing')
    assert.equal((await ok(get(h, '/inbox/conversations?limit=100'))).data.length, 8)
    const saved = await ok(patch(h, '/compliance/retention', { policies: { messages: 30 } }))
    assert.equal(saved.policies.messages, 30)
    const run = await h.app.services.compliance.retention.enforce({ workspaceId: h.a.workspaceId, mode: 'live' })
    assert.equal(JSON.parse(run!.deleted).messages.deleted, dry.dry_run.messages)
    const left = (await ok(get(h, '/inbox/conversations?limit=100'))).data
    assert.deepEqual(left.map((c: any) => c.last_message?.content ?? c.preview ?? '').length, 3)
    const after = await ok(get(h, '/compliance/retention'))
    assert.equal(after.last_run.deleted.messages, 15)
    assert.ok((await events(h, 'retention.enforced')).some((e) => e.deleted.messages === 15))
    // The evidence of retention shows the run.
    const report = await h.app.services.compliance.evidence.generate(
      { workspaceId: h.a.workspaceId, mode: 'live' },
      'retention',
      { from: '2026-01-01T00:00:00.000Z', to: '2028-01-01T00:00:00.000Z' },
      'manual',
    )
    assert.equal(JSON.parse(report.summary)['Deleted: messages'], '15')
  })

  it('messages retention takes the outbox events that copy the words, with their deliveries; the dry run counts them (issue 30, finding 3)', async () => {
    const b = { workspaceId: h.b.workspaceId, mode: 'live' as const }
    const words = 'tangerine-lighthouse-quietly'
    const c = await ok(post(h, '/inbox/conversations', { message: { content: `Old words: ${words}` } }, { key: h.b.live }), 201)
    h.clock.advance(2 * 86400_000)
    const fresh = await ok(post(h, '/inbox/conversations', { message: { content: 'Fresh words' } }, { key: h.b.live }), 201)
    const outbox = () => h.app.kernel.db.selectFrom('events').selectAll().where('workspace_id', '=', b.workspaceId).execute()
    const copies = (await outbox()).filter((e) => e.data.includes(words))
    // The message, and the conversation whose `last_message` preview quotes it.
    assert.deepEqual(copies.map((e) => e.type).sort(), ['conversation.created', 'message.created'])

    const dry = await ok(patch(h, '/compliance/retention', { policies: { messages: 1 }, dry_run: true }, h.b.live))
    // The old conversation, its conversation.created and the message.created with the words.
    assert.equal(dry.dry_run.messages, 3)
    await ok(patch(h, '/compliance/retention', { policies: { messages: 1 } }, h.b.live))
    const run = await h.app.services.compliance.retention.enforce(b)
    assert.equal(JSON.parse(run!.deleted).messages.deleted, 3)
    const left = await outbox()
    assert.equal(left.filter((e) => e.data.includes(words)).length, 0, 'no event keeps the words')
    assert.ok(
      left.some((e) => e.type === 'message.created' && JSON.parse(e.data).object.conversation_id === fresh.id),
      'newer events stay',
    )
    assertProblem(await get(h, `/inbox/conversations/${c.id}`, h.b.live), 404)
  })

  it('bad input: below a minimum 422, an unknown class 422, the Playground 422, not a number 422', async () => {
    assertProblem(await patch(h, '/compliance/retention', { policies: { audit_log: 30 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { shoe_sizes: 30 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { playground: 2 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { messages: 'forever' } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { messages: 0 } }), 422, 'validation_failed')
  })
})
