import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

describe('getDsarRequest (GET /compliance/dsar/{id})', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('answers the request as received, due in 30 days, then with its progress per module once processed', async () => {
    await ok(post(h, '/leads', { name: 'Grace', email: 'grace@example.com' }), 201)
    const made = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'grace@example.com' }, notes: 'By letter' }), 201)
    const received = await ok(get(h, `/compliance/dsar/${made.id}`))
    assert.match(received.id, /^dsar_/)
    assert.equal(received.object, 'dsar_request')
    assert.equal(received.type, 'access')
    assert.equal(received.subject.email, 'grace@example.com')
    assert.equal(received.notes, 'By letter')
    assert.equal(received.due_at, '2026-12-29T09:00:00.000Z', '30 days from the clock (GDPR art. 12(3))')
    assert.equal(received.overdue, false)
    assert.equal(received.completed_at, null)
    await h.drainJobs()
    const done = await ok(get(h, `/compliance/dsar/${made.id}`))
    assert.equal(done.status, 'completed')
    const leads = done.progress.find((p: any) => p.module === 'leads')
    assert.equal(leads.status, 'done')
    assert.equal(
      Object.values(leads.records as Record<string, number>).reduce((a, b) => a + b, 0),
      1,
      'the one lead found',
    )
    assert.ok(done.records_found >= 1)
  })

  it('is overdue once due_at has passed and it is not done', async () => {
    const made = await ok(post(h, '/compliance/dsar', { type: 'erasure', subject: { email: 'late@example.com' }, due_at: '2026-11-30T09:00:00Z' }), 201)
    assert.equal((await ok(get(h, `/compliance/dsar/${made.id}`))).overdue, false)
    h.clock.advance(2 * 86_400_000)
    assert.equal((await ok(get(h, `/compliance/dsar/${made.id}`))).overdue, true)
  })

  it("another workspace's request and an unknown id are 404; an over-long id is 422; the read scope is required", async () => {
    const made = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'ada@example.com' } }), 201)
    assertProblem(await get(h, `/compliance/dsar/${made.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/compliance/dsar/dsar_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/compliance/dsar/${'d'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/compliance/dsar/${made.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
