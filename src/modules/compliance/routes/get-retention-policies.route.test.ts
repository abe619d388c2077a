import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, get, ok, patch, type ComplianceApp } from '../compliance.testkit.js'

// update-retention-policies.route.test.ts covers enforcement; this file holds what the read promises.
describe('getRetentionPolicies (GET /compliance/retention)', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('answers keep for every class at first, each class with its minimum, and no run yet', async () => {
    const r = await ok(get(h, '/compliance/retention'))
    assert.equal(r.object, 'retention_policies')
    assert.equal(r.policies.messages, 'keep')
    assert.equal(r.policies.api_logs, 'keep')
    assert.equal(r.classes.find((c: any) => c.name === 'audit_log').minimum_days, 365)
    assert.equal(r.classes.find((c: any) => c.name === 'playground').fixed, true)
    assert.equal(r.classes.find((c: any) => c.name === 'messages').fixed, false)
    assert.equal(r.last_run, null)
    assert.equal(r.dry_run, null)
    assert.equal(r.updated_at, null)
  })

  it('answers what was saved, per workspace', async () => {
    await ok(patch(h, '/compliance/retention', { policies: { messages: 400, webhook_deliveries: 90 } }))
    const r = await ok(get(h, '/compliance/retention'))
    assert.equal(r.policies.messages, 400)
    assert.equal(r.policies.webhook_deliveries, 90)
    assert.equal(r.policies.api_logs, 'keep')
    assert.equal(r.updated_at, '2026-11-29T09:00:00.000Z')
    const theirs = await ok(get(h, '/compliance/retention', h.b.live))
    assert.equal(theirs.policies.messages, 'keep', "another workspace's policies are its own")
  })

  it('the read scope is required', async () => {
    assertProblem(await get(h, '/compliance/retention', await h.key(['bots:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, '/compliance/retention', await h.key(['read'])))).object, 'retention_policies')
  })
})
