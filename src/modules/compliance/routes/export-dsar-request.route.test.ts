import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import JSZip from 'jszip'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, events, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

const ADA = { email: 'ada@example.com', phone: '+14155550123', name: 'Ada Lovelace' }
const BOB = { email: 'bob@example.com', phone: '+14155550124', name: 'Bob Babbage' }

/** A subject present in the inbox, leads and voice (a recorded call), through the real API. */
async function seed(h: ComplianceApp, who: typeof ADA, num: any): Promise<{ conversation: any; lead: any; call: any }> {
  const conversation = await ok(
    post(h, '/inbox/conversations', { contact: { name: who.name, email: who.email, phone: who.phone }, message: { content: `Hello, this is ${who.name}. Call me on ${who.phone}.` } }),
    201,
  )
  const lead = await ok(post(h, '/leads', { name: who.name, email: who.email, phone: who.phone }), 201)
  const call = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: who.phone, record: true, script: ['Hello?'] }), 201)
  return { conversation, lead, call }
}

async function settleCalls(h: ComplianceApp) {
  for (let s = 0; s < 120; s++) {
    await h.drainJobs()
    h.clock.advance(1000)
  }
  await h.drainJobs()
}

async function download(h: ComplianceApp, url: string) {
  return h.http().inject({ method: 'GET', url: new URL(url).pathname })
}

describe('data-subject requests: access, export, erasure', () => {
  let h: ComplianceApp
  let ada: Awaited<ReturnType<typeof seed>>
  let bob: Awaited<ReturnType<typeof seed>>
  before(async () => {
    h = await complianceApp()
    const num = await ok(post(h, '/voice/numbers', { country: 'US', greeting: 'Hello from Acme.' }), 201)
    ada = await seed(h, ADA, num)
    bob = await seed(h, BOB, num)
    // Bob's conversation mentions Ada's email: it is hers too.
    await ok(post(h, `/inbox/conversations/${bob.conversation.id}/messages`, { content: `Please copy ${ADA.email} on this.` }), 201)
    await settleCalls(h)
  })
  after(() => h.close())

  it('an access request finds the subject in every module, and the export holds each record and nothing of anyone else', async () => {
    const d = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'ADA@example.com', phone: '+1 415-555-0123' } }), 201)
    assert.equal(d.status, 'received')
    assert.deepEqual(d.subject, { email: ADA.email, phone: ADA.phone, external_id: null })
    assert.equal(Date.parse(d.due_at) - Date.parse(d.created_at), 30 * 86400_000)
    await h.drainJobs()
    const done = await ok(get(h, `/compliance/dsar/${d.id}`))
    assert.equal(done.status, 'completed')
    const by = Object.fromEntries(done.progress.map((p: any) => [p.module, p]))
    assert.equal(by.inbox.records.conversations, 2, 'hers, and the call’s on the voice channel')
    assert.equal(by.leads.records.leads, 1)
    assert.equal(by.voice.records.calls, 1)
    assert.ok((await events(h, 'dsar.completed')).some((e) => e.id === d.id))

    const exporting = await ok(post(h, `/compliance/dsar/${d.id}/export`), 202)
    assert.equal(exporting.export.status, 'pending')
    await h.drainJobs()
    const ready = await ok(get(h, `/compliance/dsar/${d.id}`))
    assert.equal(ready.export.status, 'ready')
    const res = await download(h, ready.export.url)
    assert.equal(res.statusCode, 200, res.body)
    assert.equal(res.headers['content-type'], 'application/zip')
    assert.equal(createHash('sha256').update(res.rawPayload).digest('hex'), ready.export.sha256)
    const zip = await JSZip.loadAsync(res.rawPayload)
    const manifest = JSON.parse(await zip.file('manifest.json')!.async('string'))
    for (const f of manifest.files) {
      const bytes = await zip.file(f.name)!.async('nodebuffer')
      assert.equal(createHash('sha256').update(bytes).digest('hex'), f.sha256, f.name)
    }
    const names = manifest.files.map((f: any) => f.name)
    for (const n of ['inbox.json', 'leads.json', 'voice.json', 'audit.json', 'summary.txt']) assert.ok(names.includes(n), n)
    assert.ok(
      names.some((n: string) => n.startsWith('files/') && n.endsWith('.wav')),
      'the call recording',
    )
    const all = (await Promise.all(names.map((n: string) => zip.file(n)!.async('string')))).join('\n')
    for (const id of [ada.conversation.id, ada.lead.id, ada.call.id]) assert.ok(all.includes(id), id)
    for (const id of [bob.lead.id, bob.call.id]) assert.ok(!all.includes(id), `nothing of Bob: ${id}`)
    assert.ok(!all.includes(BOB.email) && !all.includes(BOB.phone), 'no other subject’s data')
    const audit = JSON.parse(await zip.file('audit.json')!.async('string'))
    assert.ok(audit.some((e: any) => e.target.id === ada.lead.id && e.action === 'createLead'))

    // The link expires after 24 hours: 410.
    h.clock.advance(25 * 3600_000)
    assertProblem(await download(h, ready.export.url), 410, 'export_link_expired')
    assert.equal((await ok(get(h, `/compliance/dsar/${d.id}`))).export.url, null)
  })

  it('erasure leaves nothing findable of the subject in any module, keeps the others, and the audit chain still verifies', async () => {
    const d = await ok(post(h, '/compliance/dsar', { type: 'erasure', subject: { email: ADA.email, phone: ADA.phone } }), 201)
    await h.drainJobs()
    const done = await ok(get(h, `/compliance/dsar/${d.id}`))
    assert.equal(done.status, 'completed')
    assert.ok(done.progress.every((p: any) => p.status === 'done'))
    // Search every module after it.
    for (const m of h.app.kernel.modules.filter((x) => x.privacy)) {
      const left = await m.privacy!.collect(h.app.kernel, h.app.services, { workspaceId: h.a.workspaceId, mode: 'live' }, { email: ADA.email, phone: ADA.phone, external_id: null })
      assert.equal(
        Object.values(left.records).reduce((n, l) => n + l.length, 0),
        0,
        `${m.name} still has ${JSON.stringify(left.records)}`,
      )
    }
    assertProblem(await get(h, `/leads/${ada.lead.id}`), 404)
    assertProblem(await get(h, `/inbox/conversations/${ada.conversation.id}`), 404)
    assert.equal((await ok(get(h, `/voice/calls/${ada.call.id}/transcript`))).segments.length, 0)
    const bobMessages = (await ok(get(h, `/inbox/conversations/${bob.conversation.id}/messages?order=asc`))).data
    assert.ok(bobMessages.some((m: any) => m.content.includes('[erased]')) && !JSON.stringify(bobMessages).includes(ADA.email))
    assert.equal((await ok(get(h, `/leads/${bob.lead.id}`))).email, BOB.email)
    assert.equal((await h.app.services.compliance.audit.verify({ workspaceId: h.a.workspaceId, mode: 'live' })).intact, true)
    // Again: nothing left to do, still completed.
    const again = await ok(post(h, '/compliance/dsar', { type: 'erasure', subject: { email: ADA.email } }), 201)
    await h.drainJobs()
    assert.equal((await ok(get(h, `/compliance/dsar/${again.id}`))).records_found, 0)
  })

  it('bad input: no identifier 422, a bad phone 422, rectification without changes 422, another workspace’s request 404', async () => {
    assertProblem(await post(h, '/compliance/dsar', { type: 'access', subject: {} }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/dsar', { type: 'access', subject: { phone: '12345' } }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/dsar', { type: 'rectification', subject: { email: 'x@example.com' } }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/dsar', { type: 'deletion', subject: { email: 'x@example.com' } }), 422, 'validation_failed')
    const theirs = await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'x@example.com' } }, { key: h.b.live }), 201)
    assertProblem(await get(h, `/compliance/dsar/${theirs.id}`), 404, 'resource_not_found')
    assertProblem(await post(h, `/compliance/dsar/${theirs.id}/export`), 404, 'resource_not_found')
    assertProblem(await h.http().inject({ method: 'GET', url: '/downloads/dsar/not-a-real-token-at-all-0000' }), 404, 'resource_not_found')
  })
})
