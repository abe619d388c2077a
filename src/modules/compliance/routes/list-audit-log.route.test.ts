import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

describe('listAuditLog and the audit chain', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('records each API change with actor, action, target and field names (never values), hash-chained', async () => {
    const conv = await ok(
      post(h, '/inbox/conversations', { contact: { email: 'secret.person@example.com', name: 'Secret Person' }, subject: 'Hello' }, { headers: { 'user-agent': 'audit-test/1' } }),
      201,
    )
    const lead = await ok(post(h, '/leads', { name: 'Ada', email: 'ada@example.com' }), 201)
    const page = await ok(get(h, '/compliance/audit-log?limit=10'))
    const entry = page.data.find((e: any) => e.target.id === conv.id)
    assert.equal(entry.action, 'createConversation')
    assert.equal(entry.actor.type, 'api_key')
    assert.match(entry.actor.id, /^key_/)
    assert.equal(entry.target.type, 'conversation')
    assert.deepEqual(entry.fields.sort(), ['contact', 'status', 'subject'], 'what the request set, defaults included')
    assert.ok(entry.events.includes('conversation.created'))
    assert.equal(entry.user_agent, 'audit-test/1')
    assert.match(entry.request_id, /^req_/)
    assert.ok(!JSON.stringify(page).includes('secret.person@example.com'), 'no personal data values in the log')
    assert.match(entry.chain.hash, /^[0-9a-f]{64}$/)
    const leadEntry = page.data.find((e: any) => e.target.id === lead.id)
    assert.equal(leadEntry.chain.seq, entry.chain.seq + 1)
    assert.equal(leadEntry.chain.prev_hash, entry.chain.hash)
    // Filters.
    const only = await ok(get(h, `/compliance/audit-log?action=createLead`))
    assert.deepEqual(
      only.data.map((e: any) => e.target.id),
      [lead.id],
    )
    assert.equal((await ok(get(h, `/compliance/audit-log?target_id=${conv.id}`))).data.length, 1)
    assert.equal((await ok(get(h, `/compliance/audit-log?from=2030-01-01T00:00:00Z`))).data.length, 0)
    // Another workspace sees none of it.
    assert.equal((await ok(get(h, '/compliance/audit-log', h.b.live))).data.length, 0)
  })

  it('a row modified or deleted in the database is detected by verification and in the evidence PDF', async () => {
    for (let i = 0; i < 3; i++) await ok(post(h, '/leads', { name: `Lead ${i}` }), 201)
    assert.equal((await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })).intact, true)
    const one = await h.app.kernel.db
      .selectFrom('audit_log')
      .select(['id', 'seq'])
      .where('workspace_id', '=', h.a.workspaceId)
      .where('action', '=', 'createLead')
      .orderBy('seq')
      .executeTakeFirstOrThrow()
    await h.app.kernel.db.updateTable('audit_log').set({ action: 'deleteLead' }).where('id', '=', one.id).execute()
    const v = await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })
    assert.equal(v.intact, false)
    assert.equal(v.broken!.seq, Number(one.seq))
    assert.match(v.broken!.reason, /modified/)
    // The evidence report says so, in its PDF too.
    const row = await h.app.services.compliance.evidence.generate(
      { workspaceId: h.a.workspaceId, mode: 'live' },
      'audit_chain',
      { from: '2026-11-29T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' },
      'manual',
    )
    const pdf = await h.request({ method: 'GET', url: `/v2/compliance/evidence/${row.id}/download` })
    assert.equal(pdf.statusCode, 200)
    assert.equal(pdf.headers['content-type'], 'application/pdf')
    const text = execFileSync('pdftotext', ['-', '-'], { input: pdf.rawPayload }).toString()
    assert.match(text, /Audit log chain verification/)
    assert.match(text, /BROKEN/)
    const json = await ok(h.request({ method: 'GET', url: `/v2/compliance/evidence/${row.id}/download?format=json` }))
    assert.equal(json.summary.find((s: any) => s.label === 'Result').value, 'BROKEN')
    // Put it back: intact, and a report records the head. Then delete the head entry (no later link covers it):
    // the anchor the report recorded finds it missing.
    await h.app.kernel.db.updateTable('audit_log').set({ action: 'createLead' }).where('id', '=', one.id).execute()
    assert.equal((await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })).intact, true)
    await h.app.services.compliance.evidence.generate({ workspaceId: h.a.workspaceId, mode: 'live' }, 'audit_chain', { from: '2026-11-29T00:00:00.000Z', to: '2026-11-30T00:00:00.000Z' }, 'manual')
    const head = await h.app.kernel.db.selectFrom('audit_log').select('id').where('workspace_id', '=', h.a.workspaceId).orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow()
    await h.app.kernel.db.deleteFrom('audit_log').where('id', '=', head.id).execute()
    const cut = await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })
    assert.equal(cut.intact, false)
    assert.match(cut.broken!.reason, /entries deleted from the end/)
    // A row from the middle: the gap itself.
    const first = await h.app.kernel.db.selectFrom('audit_log').select('id').where('workspace_id', '=', h.a.workspaceId).where('seq', '=', 1).executeTakeFirstOrThrow()
    await h.app.kernel.db.deleteFrom('audit_log').where('id', '=', first.id).execute()
    const gap = await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })
    assert.equal(gap.intact, false)
    assert.match(gap.broken!.reason, /entry 1 is missing/)
  })

  it('a job’s changes are the system’s, named by the job; a change made beside a request’s own is the request’s', async () => {
    await ok(post(h, '/leads', { name: 'Dee', email: 'dee@example.com' }), 201)
    const dsar = await ok(post(h, '/compliance/dsar', { type: 'rectification', subject: { email: 'dee@example.com' }, changes: { name: 'Dee Dee' } }), 201)
    await h.drainJobs()
    const byJob = (await ok(get(h, '/compliance/audit-log?action=compliance.dsar-process&limit=100'))).data
    assert.ok(byJob.length > 0, 'the job’s changes are in the log')
    for (const e of byJob) assert.deepEqual(e.actor, { type: 'system', id: null })
    assert.ok(
      byJob.some((e: any) => e.events.includes('lead.updated')),
      'the rectification the job made through the leads module (a tenant it handed on) is the job’s',
    )
    assert.ok(byJob.some((e: any) => e.target.id === dsar.id))
    // Yesterday's evidence reports are made by the first list that misses them: audited as that request.
    await ok(get(h, '/compliance/evidence'))
    const byList = (await ok(get(h, '/compliance/audit-log?action=listComplianceEvidence&limit=100'))).data
    assert.equal(byList.length, 4)
    for (const e of byList) assert.equal(e.actor.type, 'api_key')
  })

  it('from and to are instants: an offset, or a time without milliseconds, selects by the time it names', async () => {
    h.clock.advance(1500)
    const lead = await ok(post(h, '/leads', { name: 'Timed' }), 201)
    const [entry] = (await ok(get(h, `/compliance/audit-log?target_id=${lead.id}`))).data
    const at = Date.parse(entry.occurred_at)
    assert.notEqual(at % 1000, 0, 'the entry falls inside a second')
    const seconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z')
    const offset = (ms: number, hours: number) => new Date(ms + hours * 3_600_000).toISOString().replace('Z', `${hours < 0 ? '-' : '+'}${String(Math.abs(hours)).padStart(2, '0')}:00`)
    const found = async (q: string) => (await ok(get(h, `/compliance/audit-log?target_id=${lead.id}&${q}`))).data.length
    assert.equal(await found(`from=${encodeURIComponent(seconds(at))}&to=${encodeURIComponent(seconds(at + 1000))}`), 1)
    assert.equal(await found(`from=${encodeURIComponent(offset(at, 1))}&to=${encodeURIComponent(offset(at + 1, -5))}`), 1)
    assert.equal(await found(`from=${encodeURIComponent(offset(at + 1, 1))}`), 0)
    assert.equal(await found(`to=${encodeURIComponent(offset(at, -5))}`), 0, 'to is exclusive')
  })

  it('bad filters are 422', async () => {
    assertProblem(await get(h, '/compliance/audit-log?actor_type=robot'), 422, 'validation_failed')
    assertProblem(await get(h, '/compliance/audit-log?from=yesterday'), 422, 'validation_failed')
  })
})
