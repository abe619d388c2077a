import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

describe('listComplianceEvidence / downloadComplianceEvidence', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('has yesterday’s four reports, each downloadable as a PDF with its headings and as the JSON its checksum covers', async () => {
    await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'ada@example.com' } }), 201)
    const list = await ok(get(h, '/compliance/evidence'))
    assert.deepEqual(list.data.map((e: any) => e.kind).sort(), ['access_review', 'audit_chain', 'dsar_timeliness', 'retention'])
    assert.ok(list.data.every((e: any) => e.trigger === 'schedule' && e.period.from === '2026-11-28T00:00:00.000Z'))
    assert.equal((await ok(get(h, '/compliance/evidence'))).data.length, 4, 'made once')
    const access = list.data.find((e: any) => e.kind === 'access_review')
    const pdf = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${access.id}/download`, headers: { accept: 'application/pdf' } })
    assert.equal(pdf.statusCode, 200)
    const text = execFileSync('pdftotext', ['-', '-'], { input: pdf.rawPayload }).toString()
    for (const heading of ['Access review', 'API keys', 'Members']) assert.match(text, new RegExp(heading))
    const json = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${access.id}/download?format=json` })
    assert.equal(json.statusCode, 200)
    assert.equal(createHash('sha256').update(json.rawPayload).digest('hex'), access.sha256)
    const range = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${access.id}/download`, headers: { range: 'bytes=0-4' } })
    assert.equal(range.statusCode, 206)
    assert.equal(range.body, '%PDF-')
    assertProblem(await get(h, `/compliance/evidence/${access.id}/download`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/compliance/evidence?kind=everything'), 422, 'validation_failed')
  })
})
