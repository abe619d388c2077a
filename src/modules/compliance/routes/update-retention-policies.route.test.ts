import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, events, get, ok, patch, post, type ComplianceApp } from '../compliance.test-support.js'

describe('getRetentionPolicies / updateRetentionPolicies and enforcement', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('lists every class with its minimum; keep by default; the Playground fixed', async () => {
    const r = await ok(get(h, '/compliance/retention'))
    const names = r.classes.map((c: any) => c.name)
    for (const n of ['messages', 'call_recordings', 'transcripts', 'webhook_deliveries', 'audit_log', 'dsar_exports', 'api_logs', 'playground']) assert.ok(names.includes(n), n)
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
    assert.equal(dry.dry_run.messages, 5)
    assert.equal((await ok(get(h, '/compliance/retention'))).policies.messages, 'keep', 'a dry run saves nothing')
    assert.equal((await ok(get(h, '/inbox/conversations?limit=100'))).data.length, 8)
    const saved = await ok(patch(h, '/compliance/retention', { policies: { messages: 30 } }))
    assert.equal(saved.policies.messages, 30)
    const run = await h.app.services.compliance.retention.enforce({ workspaceId: h.a.workspaceId, mode: 'live' })
    assert.equal(JSON.parse(run!.deleted).messages.deleted, dry.dry_run.messages)
    const left = (await ok(get(h, '/inbox/conversations?limit=100'))).data
    assert.deepEqual(left.map((c: any) => c.last_message?.content ?? c.preview ?? '').length, 3)
    const after = await ok(get(h, '/compliance/retention'))
    assert.equal(after.last_run.deleted.messages, 5)
    assert.ok((await events(h, 'retention.enforced')).some((e) => e.deleted.messages === 5))
    // The evidence of retention shows the run.
    const report = await h.app.services.compliance.evidence.generate({ workspaceId: h.a.workspaceId, mode: 'live' }, 'retention', { from: '2026-01-01T00:00:00.000Z', to: '2028-01-01T00:00:00.000Z' }, 'manual')
    assert.equal(JSON.parse(report.summary)['Deleted: messages'], '5')
  })

  it('bad input: below a minimum 422, an unknown class 422, the Playground 422, not a number 422', async () => {
    assertProblem(await patch(h, '/compliance/retention', { policies: { audit_log: 30 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { shoe_sizes: 30 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { playground: 2 } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { messages: 'forever' } }), 422, 'validation_failed')
    assertProblem(await patch(h, '/compliance/retention', { policies: { messages: 0 } }), 422, 'validation_failed')
  })
})
