import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, events, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

describe('createComplianceEvidence', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('makes a report now over the period asked, listed with trigger manual, its JSON covered by the checksum', async () => {
    const dsar = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'ada@example.com' } }), 201)
    h.clock.advance(60_000)
    const made = await ok(post(h, '/compliance/evidence', { kind: 'dsar_timeliness', from: '2026-11-01T00:00:00Z', to: '2026-11-29T09:01:00Z' }), 201)
    assert.equal(made.kind, 'dsar_timeliness')
    assert.equal(made.trigger, 'manual')
    assert.deepEqual(made.period, { from: '2026-11-01T00:00:00.000Z', to: '2026-11-29T09:01:00.000Z' })
    assert.equal(made.generated_at, '2026-11-29T09:01:00.000Z')
    assert.ok(Object.keys(made.summary).length > 0)

    const json = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${made.id}/download?format=json` })
    assert.equal(createHash('sha256').update(json.rawPayload).digest('hex'), made.sha256)
    const report = JSON.parse(json.body)
    assert.deepEqual(report.period, made.period)
    assert.deepEqual(
      report.sections[0].table.rows.map((r: string[]) => r[0]),
      [dsar.id],
      'the request made in the period is in it',
    )
    const listed = (await ok(get(h, '/compliance/evidence?kind=dsar_timeliness'))).data
    assert.deepEqual(
      listed.find((e: any) => e.id === made.id),
      made,
    )
    assert.ok((await events(h, 'evidence.generated')).some((e) => e.id === made.id))
  })

  it('defaults to the 30 days to now', async () => {
    const made = await ok(post(h, '/compliance/evidence', { kind: 'access_review' }), 201)
    assert.deepEqual(made.period, { from: '2026-10-30T09:01:00.000Z', to: '2026-11-29T09:01:00.000Z' })
  })

  it('an idempotent retry returns the same report and makes no second one', async () => {
    const headers = { 'idempotency-key': 'evidence-retry-1' }
    const first = await ok(post(h, '/compliance/evidence', { kind: 'retention' }, { headers }), 201)
    const again = await ok(post(h, '/compliance/evidence', { kind: 'retention' }, { headers }), 201)
    assert.deepEqual(again, first)
    const manual = (await ok(get(h, '/compliance/evidence?kind=retention'))).data.filter((e: any) => e.trigger === 'manual')
    assert.equal(manual.length, 1)
  })

  it('bad input: unknown kind, a period backwards, in the future or over 366 days, unknown fields are 422; nothing is made', async () => {
    const before = (await ok(get(h, '/compliance/evidence?limit=100'))).data.length
    assertProblem(await post(h, '/compliance/evidence', {}), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'everything' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain', from: 'yesterday' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain', from: '2026-11-20T00:00:00Z', to: '2026-11-10T00:00:00Z' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain', to: '2026-11-29T09:02:00Z' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain', from: '2025-01-01T00:00:00Z' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain', title: 'x' }), 422, 'validation_failed')
    assert.equal((await ok(get(h, '/compliance/evidence?limit=100'))).data.length, before)
    assertProblem(await post(h, '/compliance/evidence', { kind: 'audit_chain' }, { key: await h.key(['read']) }), 403)
  })
})
