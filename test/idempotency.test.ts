import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { findPrincipal } from '../src/kernel/auth/api-keys.js'
import { createTestApp, ENGINE, json, type TestApp } from './helpers.js'

describe('Idempotency-Key', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  const invite = (key: string, email: string, apiKey?: string) =>
    h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, key: apiKey, headers: { 'idempotency-key': key }, payload: { email } })
  const count = async (email: string) =>
    json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=100` })).data.filter((m: { email: string }) => m.email === email).length

  it('replays the first response when the same key and payload come again, with no second effect', async () => {
    const first = await invite('k-replay', 'replay@example.com')
    assert.equal(first.statusCode, 201)
    assert.equal(first.headers['idempotent-replayed'], undefined)
    const second = await invite('k-replay', 'replay@example.com')
    assert.equal(second.statusCode, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.equal(second.body, first.body)
    assert.equal(await count('replay@example.com'), 1)
  })

  it('answers 409 idempotency_key_reused when the payload differs', async () => {
    assert.equal((await invite('k-mismatch', 'one@example.com')).statusCode, 201)
    const res = await invite('k-mismatch', 'two@example.com')
    assert.equal(res.statusCode, 409)
    assert.equal(json(res).code, 'idempotency_key_reused')
    assert.equal(await count('two@example.com'), 0)
    // A different path with the same key is a different payload too.
    const patch = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, headers: { 'idempotency-key': 'k-mismatch' }, payload: { name: 'x' } })
    assert.equal(patch.statusCode, 409)
  })

  it('scopes keys to the API key', async () => {
    const other = await h.key(['write'])
    assert.equal((await invite('k-scoped', 'scoped1@example.com')).statusCode, 201)
    const res = await invite('k-scoped', 'scoped2@example.com', other)
    assert.equal(res.statusCode, 201, 'another API key may use the same Idempotency-Key')
  })

  it('does not store requests rejected before execution (401, 403, 422)', async () => {
    const readOnly = await h.key(['read'])
    assert.equal((await invite('k-rejected', 'bad-email', undefined)).statusCode, 422)
    assert.equal((await invite('k-rejected', 'x@example.com', readOnly)).statusCode, 403)
    const res = await invite('k-rejected', 'fixed@example.com')
    assert.equal(res.statusCode, 201, 'the key is still free after a 422')
    assert.equal(res.headers['idempotent-replayed'], undefined)
  })

  it('rejects keys longer than 255 characters with 422', async () => {
    const res = await invite('k'.repeat(256), 'long@example.com')
    assert.equal(res.statusCode, 422)
    assert.equal(json(res).code, 'invalid_idempotency_key')
    assert.equal((await invite('k'.repeat(255), 'long@example.com')).statusCode, 201)
  })

  it('answers 409 idempotency_request_in_progress while the first request with the key is running', async () => {
    const principal = await findPrincipal(h.app.kernel.db, h.a.live)
    if (ENGINE === 'postgres') {
      // Hold the first request inside its handler for real: lock the table its INSERT needs.
      const schema = h.config.databaseSchema
      const locker = new pg.Client({ connectionString: h.config.databaseUrl })
      await locker.connect()
      await locker.query('begin')
      await locker.query(`lock table ${schema ? `"${schema}".` : ''}workspace_members in exclusive mode`)
      const first = invite('k-inflight', 'inflight@example.com')
      // Wait until the first request holds its claim.
      for (let i = 0; i < 100; i++) {
        const r = await h.app.kernel.db.selectFrom('idempotency_keys').select('status').where('idem_key', '=', 'k-inflight').executeTakeFirst()
        if (r) break
        await new Promise((r) => setTimeout(r, 20))
      }
      const second = await invite('k-inflight', 'inflight@example.com')
      assert.equal(second.statusCode, 409)
      assert.equal(json(second).code, 'idempotency_request_in_progress')
      await locker.query('commit')
      await locker.end()
      assert.equal((await first).statusCode, 201)
    } else {
      // SQLite has one writer, so stand in for a request in flight in another process: its claim row.
      const now = new Date()
      await h.app.kernel.db
        .insertInto('idempotency_keys')
        .values({
          api_key_id: principal!.keyId,
          idem_key: 'k-inflight',
          request_hash: 'other-process',
          status: 'in_progress',
          response_status: null,
          response_body: null,
          response_content_type: null,
          locked_until: new Date(now.getTime() + 60_000).toISOString(),
          created_at: now.toISOString(),
        })
        .execute()
      await h.app.kernel.db
        .updateTable('idempotency_keys')
        .set({ request_hash: (await import('node:crypto')).createHash('sha256').update(`POST\n/v2/workspaces/${h.a.workspaceId}/members\n{"email":"inflight@example.com"}`).digest('hex') })
        .where('idem_key', '=', 'k-inflight')
        .execute()
      const second = await invite('k-inflight', 'inflight@example.com')
      assert.equal(second.statusCode, 409)
      assert.equal(json(second).code, 'idempotency_request_in_progress')
    }
  })

  it('lets exactly one of many concurrent requests with one key take effect', async () => {
    const results = await Promise.all(Array.from({ length: 12 }, () => invite('k-race', 'race@example.com')))
    const statuses = results.map((r) => r.statusCode)
    assert.ok(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(','),
    )
    const created = results.filter((r) => r.statusCode === 201)
    assert.ok(created.length >= 1)
    assert.equal(new Set(created.map((r) => json(r).id)).size, 1, 'every 201 is the same member')
    for (const r of results.filter((r) => r.statusCode === 409)) assert.equal(json(r).code, 'idempotency_request_in_progress')
    assert.equal(await count('race@example.com'), 1)
  })

  it('takes over a claim whose process died (lock expired)', async () => {
    const principal = await findPrincipal(h.app.kernel.db, h.a.live)
    const res0 = await invite('k-dead', 'dead@example.com')
    assert.equal(res0.statusCode, 201)
    // Simulate a crash mid-flight: the row is back to in_progress with an expired lock.
    await h.app.kernel.db
      .updateTable('idempotency_keys')
      .set({ status: 'in_progress', response_body: null, locked_until: new Date(Date.now() - 1000).toISOString() })
      .where('api_key_id', '=', principal!.keyId)
      .where('idem_key', '=', 'k-dead')
      .execute()
    const res = await invite('k-dead', 'dead@example.com')
    // The work is re-executed; the unique email makes the repeat a 409 conflict, not a duplicate.
    assert.equal(res.statusCode, 409)
    assert.equal(await count('dead@example.com'), 1)
  })
})

describe('Idempotency-Key replays the status the operation answered', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  // uploadKnowledgeDocument answers 202 (queued) or 200 (the same bytes are already there), decided in its
  // transaction. The key's row as the transaction left it (`committed`, onSend had nothing to add) is what a
  // crash between commit and answer leaves behind, so replaying it now is the replay after that crash.
  const upload = (kbId: string, key: string, text: string) =>
    h.request({ method: 'POST', url: `/v2/knowledge/bases/${kbId}/documents`, headers: { 'idempotency-key': key }, payload: { title: 'Replay', text } })
  const stored = (key: string) => h.app.kernel.db.selectFrom('idempotency_keys').select(['status', 'response_status']).where('idem_key', '=', key).executeTakeFirstOrThrow()

  it('a 202 operation replays 202, and its 200 answer replays 200', async () => {
    const kb = json(await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Replays' } }))
    const first = await upload(kb.id, 'k-202', 'Parcels ship within two days.')
    assert.equal(first.statusCode, 202, first.body)
    const row = await stored('k-202')
    assert.equal(row.status, 'committed')
    assert.equal(Number(row.response_status), 202)
    const replay = await upload(kb.id, 'k-202', 'Parcels ship within two days.')
    assert.equal(replay.statusCode, 202)
    assert.equal(replay.headers['idempotent-replayed'], 'true')
    assert.equal(json(replay).id, json(first).id)

    const duplicate = await upload(kb.id, 'k-200', 'Parcels ship within two days.')
    assert.equal(duplicate.statusCode, 200, duplicate.body)
    assert.equal(json(duplicate).id, json(first).id)
    assert.equal(Number((await stored('k-200')).response_status), 200)
    const again = await upload(kb.id, 'k-200', 'Parcels ship within two days.')
    assert.equal(again.statusCode, 200)
    assert.equal(again.headers['idempotent-replayed'], 'true')
  })
})

describe('Idempotency-Key retention', () => {
  it('keeps keys 24 hours, then maintenance purges them and the key is free again', async () => {
    const { ManualClock } = await import('../src/kernel/clock.js')
    const { runMaintenance } = await import('../src/kernel/maintenance.js')
    const clock = new ManualClock()
    const h = await createTestApp({ clock })
    try {
      const send = (email: string) => h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, headers: { 'idempotency-key': 'k-retained' }, payload: { email } })
      assert.equal((await send('r1@example.com')).statusCode, 201)
      clock.advance(23 * 3600_000)
      await runMaintenance(h.app.kernel)
      assert.equal((await send('r2@example.com')).statusCode, 409, 'still remembered after 23 h')
      clock.advance(2 * 3600_000)
      const purged = await runMaintenance(h.app.kernel)
      assert.ok(purged.idempotencyKeys >= 1)
      assert.equal((await send('r2@example.com')).statusCode, 201, 'free again after 24 h')
    } finally {
      await h.close()
    }
  })
})
