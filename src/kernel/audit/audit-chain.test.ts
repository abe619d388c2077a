import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { createKernel } from '../../app.js'
import { complianceApp, events, get, ok, post, type ComplianceApp } from '../../modules/compliance/compliance.testkit.js'
import { TEST_SERVER_SECRET } from '../../../test/helpers.js'
import type { AuditLogTable } from '../db/kernel.tables.js'
import { GENESIS, legacyEntryHash } from './audit.js'

// Someone who can write the database but holds no server secret: what they can no longer do to the audit chain.
describe('the keyed audit chain', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())
  const ws = () => h.a.workspaceId
  const verify = () => h.app.services.compliance.audit.verify({ workspaceId: ws(), mode: 'live' })
  const rows = () => h.app.kernel.db.selectFrom('audit_log').selectAll().where('workspace_id', '=', ws()).where('seq', 'is not', null).orderBy('seq').execute()
  const setRow = (r: AuditLogTable) =>
    h.app.kernel.db
      .updateTable('audit_log')
      .set({ action: r.action, prev_hash: r.prev_hash, hash: r.hash, entry_mac: r.entry_mac ?? null })
      .where('id', '=', r.id)
      .execute()

  it('the newest entry rewritten with a recomputed SHA-256 link does not verify', async () => {
    for (let i = 0; i < 3; i++) await ok(post(h, '/leads', { name: `Lead ${i}` }), 201)
    assert.equal((await verify()).intact, true)
    const all = await rows()
    const head = all[all.length - 1]
    assert.match(head.hash!, /^[0-9a-f]{64}$/)
    const forged = { ...head, action: 'deleteWorkspace' }
    forged.hash = legacyEntryHash(forged)
    await setRow(forged)
    const v = await verify()
    assert.equal(v.intact, false)
    assert.equal(v.broken!.seq, Number(head.seq))
    assert.match(v.broken!.reason, /chain key/)
    await setRow(head)
    assert.equal((await verify()).intact, true)
  })

  it('a row inserted with seq NULL is never sealed and verification names it', async () => {
    const [first] = await rows()
    const id = 'aud_01JD0000000000000000FORGED'
    await h.app.kernel.db
      .insertInto('audit_log')
      .values({ ...first, id, action: 'createApiKey', occurred_at: '2026-11-29T09:00:00.000Z', seq: null, prev_hash: null, hash: null, entry_mac: 'f'.repeat(64) })
      .execute()
    await ok(post(h, '/leads', { name: 'After the insert' }), 201)
    // Listing seals: the service's own entry is sealed, the inserted one is not.
    const listed = await ok(get(h, '/compliance/audit-log?limit=100'))
    assert.equal(listed.data.find((e: any) => e.id === id)?.chain.seq ?? null, null)
    const forged = await h.app.kernel.db.selectFrom('audit_log').select(['seq', 'hash']).where('id', '=', id).executeTakeFirstOrThrow()
    assert.equal(forged.seq, null, 'not sealed into the chain')
    const v = await verify()
    assert.equal(v.intact, false)
    assert.equal(v.broken!.id, id)
    assert.match(v.broken!.reason, /not written by this service/)
    await h.app.kernel.db.deleteFrom('audit_log').where('id', '=', id).execute()
    assert.equal((await verify()).intact, true)
  })

  it('entries deleted from the end are caught by the checkpoint outside the database, even with the evidence rows gone and the chain grown back', async () => {
    const made = await ok(post(h, '/compliance/evidence', { kind: 'audit_chain' }), 201)
    const report = await ok(h.request({ method: 'GET', url: `/v2/compliance/evidence/${made.id}/download?format=json` }))
    const cp = (await events(h, 'audit.checkpoint')).at(-1)
    assert.equal(cp.object, 'audit_checkpoint')
    assert.equal(cp.workspace_id, ws())
    assert.match(cp.signature, /^[0-9a-f]{64}$/)
    assert.equal(report.summary.find((s: any) => s.label === 'Checkpoint').value, `#${cp.seq} of ${cp.created_at}`)
    assert.ok(
      report.sections.some((s: any) => s.heading === 'Signed checkpoint' && s.text.includes(cp.signature)),
      'the report carries the signed checkpoint',
    )
    const all = await rows()
    assert.equal(Number(all[all.length - 1].seq), cp.seq)
    assert.equal(all[all.length - 1].hash, cp.mac)
    // Remove the last two entries and every trace in the database (the evidence rows).
    await h.app.kernel.db
      .deleteFrom('audit_log')
      .where(
        'id',
        'in',
        all.slice(-2).map((r) => r.id),
      )
      .execute()
    await h.app.kernel.db.deleteFrom('compliance_evidence').where('workspace_id', '=', ws()).execute()
    const v = await verify()
    assert.equal(v.intact, false)
    assert.match(v.broken!.reason, /entries deleted from the end/)
    // New entries take the deleted positions: the checkpointed position now holds another entry.
    for (let i = 0; i < 4; i++) await ok(post(h, '/leads', { name: `Regrown ${i}` }), 201)
    await h.app.services.compliance.audit.list({ workspaceId: ws(), mode: 'live' }, { limit: 1 } as any)
    const again = await verify()
    assert.equal(again.intact, false)
    assert.equal(again.broken!.seq, cp.seq)
    assert.match(again.broken!.reason, /not the entry the checkpoint/)
    assert.equal(((await h.app.kernel.audit.readCheckpoint(ws())) as any).checkpoint.seq, cp.seq, 'the checkpoint did not move past the evidence')
  })

  it('a chain sealed under the unkeyed scheme is re-sealed once at start (a chain already broken stays broken)', async () => {
    // Workspace B, as the previous version left it: SHA-256 links, no entry MACs, no checkpoint.
    const b = h.b.workspaceId
    for (let i = 0; i < 3; i++) await ok(post(h, '/leads', { name: `B ${i}` }, { key: h.b.live }), 201)
    await h.app.kernel.audit.seal(b)
    await h.app.kernel.blobs.delete(`audit/${b.toLowerCase()}/checkpoint.json`)
    const chain = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('workspace_id', '=', b).where('seq', 'is not', null).orderBy('seq').execute()
    let prev = GENESIS
    for (const r of chain) {
      const legacy = { ...r, prev_hash: prev, entry_mac: null }
      legacy.hash = legacyEntryHash(legacy)
      await setRow(legacy)
      prev = legacy.hash
    }
    await h.app.kernel.db.deleteFrom('instance_settings').where('key', '=', 'audit_chain_scheme').execute()
    const verifyB = () => h.app.services.compliance.audit.verify({ workspaceId: b, mode: 'live' })
    assert.equal((await verifyB()).intact, false, 'unkeyed links do not verify as keyed ones')
    // The next start (another node over the same database) re-seals it.
    const restart = async () => (await createKernel({ config: h.config, clock: h.clock })).kernel.database.close()
    await restart()
    const v = await verifyB()
    assert.equal(v.intact, true, JSON.stringify(v.broken))
    assert.equal(v.entries, chain.length)
    // Only once: unkeyed links written after the upgrade are not re-sealed by a later start.
    const last = (await h.app.kernel.db.selectFrom('audit_log').selectAll().where('workspace_id', '=', b).where('seq', '=', chain.length).executeTakeFirstOrThrow()) as AuditLogTable
    const forged = { ...last, action: 'deleteWorkspace' }
    forged.hash = legacyEntryHash(forged)
    await setRow(forged)
    await restart()
    assert.equal((await verifyB()).intact, false)
  })

  it('after a rotation the chain verifies under the previous secret while it is listed, and `secrets reseal` moves it to the new one', async () => {
    const ws = await h.app.services.workspaces.create({ name: 'Rotating', ownerEmail: 'owner@rotating.example' })
    const key = await h.key(['read', 'write'], { workspaceId: ws.id })
    for (let i = 0; i < 3; i++) await ok(post(h, '/leads', { name: `R ${i}` }, { key }), 201)
    await h.app.kernel.audit.seal(ws.id)
    const next = randomBytes(32).toString('base64url')
    const both = (await createKernel({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [TEST_SERVER_SECRET] }, clock: h.clock })).kernel
    try {
      assert.equal((await both.audit.verify(ws.id)).intact, true, 'sealed under the previous secret, verified with it')
      assert.ok((await both.audit.reseal(ws.id))! > 0)
    } finally {
      await both.database.close()
    }
    const only = (await createKernel({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, clock: h.clock })).kernel
    try {
      const v = await only.audit.verify(ws.id)
      assert.equal(v.intact, true, JSON.stringify(v.broken))
      assert.equal(v.entries, 3)
    } finally {
      await only.database.close()
    }
  })
})

describe('sealing the audit chain', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('several sealers at once (nodes), in batches: each entry is sealed once, in one unbroken chain', async () => {
    const ws = h.a.workspaceId
    for (let i = 0; i < 25; i++) await ok(post(h, '/leads', { name: `Sealed ${i}` }), 201)
    const unsealed = () => h.app.kernel.db.selectFrom('audit_log').select('id').where('workspace_id', '=', ws).where('seq', 'is', null).execute()
    assert.ok((await unsealed()).length >= 25)
    const counts = await Promise.all([1, 2, 3, 4].map(() => h.app.kernel.audit.seal(ws, 7)))
    assert.deepEqual(await unsealed(), [], 'the sealer that won carried on to the end')
    const all = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('workspace_id', '=', ws).orderBy('seq').execute()
    assert.deepEqual(
      all.map((r) => Number(r.seq)),
      all.map((_, i) => i + 1),
    )
    assert.ok(counts.reduce((a, b) => a + b, 0) >= 25)
    const v = await h.app.services.compliance.audit.verify({ workspaceId: ws, mode: 'live' })
    assert.equal(v.intact, true, JSON.stringify(v))
  })
  it('a long seal lets the event loop turn between its batches (requests are not held for the whole backlog)', async () => {
    const ws = h.a.workspaceId
    for (let i = 0; i < 30; i++) await ok(post(h, '/leads', { name: `Backlog ${i}` }), 201)
    const unsealed = async () => (await h.app.kernel.db.selectFrom('audit_log').select('id').where('workspace_id', '=', ws).where('seq', 'is', null).execute()).length
    const total = await unsealed()
    // On SQLite a batch's statements resolve without a turn of the event loop: what a turn sees is the pause
    // between two batches, or none when the batches run back to back (the sockets then wait for them all).
    const seen: number[] = []
    let sealing = true
    const turn = () => void unsealed().then((n) => (seen.push(n), sealing && setImmediate(turn)))
    setImmediate(turn)
    await h.app.kernel.audit.seal(ws, 5)
    sealing = false
    assert.ok(total >= 30)
    assert.ok(
      seen.some((n) => n > 0 && n < total),
      `a turn between batches saw part of the backlog sealed (counts seen: ${[...new Set(seen)].join(' ')} of ${total})`,
    )
  })
})
