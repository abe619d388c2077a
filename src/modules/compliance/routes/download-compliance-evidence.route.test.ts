import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, ok, post, type ComplianceApp } from '../compliance.testkit.js'

const download = (h: ComplianceApp, id: string, query = '', headers: Record<string, string> = {}, key?: string) =>
  h.request({ method: 'GET', url: `/v2/compliance/evidence/${id}/download${query}`, headers, ...(key ? { key } : {}) })

// list-compliance-evidence.route.test.ts reads the PDFs' text; this file holds the download's own promises.
describe('downloadComplianceEvidence (GET /compliance/evidence/{id}/download)', () => {
  let h: ComplianceApp
  let report: any
  before(async () => {
    h = await complianceApp()
    report = await ok(post(h, '/compliance/evidence', { kind: 'retention', from: '2026-11-01T00:00:00Z', to: '2026-11-29T00:00:00Z' }), 201)
  })
  after(() => h.close())

  it('sends the PDF by default and by Accept, the JSON by ?format=json or Accept: application/json', async () => {
    const pdf = await download(h, report.id)
    assert.equal(pdf.statusCode, 200)
    assert.match(String(pdf.headers['content-type']), /^application\/pdf/)
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-')
    assert.equal((await download(h, report.id, '', { accept: 'application/pdf' })).rawPayload.subarray(0, 5).toString(), '%PDF-')
    const json = await download(h, report.id, '?format=json')
    assert.equal(json.statusCode, 200)
    assert.match(String(json.headers['content-type']), /^application\/json/)
    assert.equal(createHash('sha256').update(json.rawPayload).digest('hex'), report.sha256, 'the checksum the listing shows covers the JSON')
    const body = JSON.parse(json.body)
    assert.equal(body.kind, 'retention')
    assert.deepEqual(body.period, { from: '2026-11-01T00:00:00.000Z', to: '2026-11-29T00:00:00.000Z' })
    const byAccept = await download(h, report.id, '', { accept: 'application/json' })
    assert.deepEqual(byAccept.rawPayload, json.rawPayload)
  })

  it('answers a byte range with 206, and an unsatisfiable one with 416', async () => {
    const whole = await download(h, report.id)
    const part = await download(h, report.id, '', { range: 'bytes=0-7' })
    assert.equal(part.statusCode, 206)
    assert.deepEqual(part.rawPayload, whole.rawPayload.subarray(0, 8))
    assert.match(String(part.headers['content-range']), new RegExp(`^bytes 0-7/${whole.rawPayload.length}$`))
    assertProblem(await download(h, report.id, '', { range: `bytes=${whole.rawPayload.length + 10}-` }), 416, 'range_not_satisfiable')
  })

  it("another workspace's report and an unknown id are 404; a bad format is 422; the read scope is required", async () => {
    assertProblem(await download(h, report.id, '', {}, h.b.live), 404, 'resource_not_found')
    assertProblem(await download(h, 'evd_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await download(h, report.id, '?format=docx'), 422, 'validation_failed')
    assertProblem(await download(h, report.id, '', {}, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
