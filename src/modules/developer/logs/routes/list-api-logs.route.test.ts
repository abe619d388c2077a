import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createApiKey } from '../../../../kernel/auth/api-keys.js'
import { assertProblem, createTestApp, get, ok, type TestApp } from '../../../../../test/helpers.js'

const page = (h: TestApp, query = '', key?: string) => ok(get(h, `/api-logs${query}`, key))

describe('listApiLogs', () => {
  let h: TestApp
  let keyId: string
  let key: string
  let readOnly: { id: string; key: string }
  before(async () => {
    h = await createTestApp()
    const k = await createApiKey(h.app.kernel.db, h.app.kernel.clock, { workspaceId: h.a.workspaceId, mode: 'live', scopes: ['admin'] })
    keyId = k.id
    key = k.key
    readOnly = await createApiKey(h.app.kernel.db, h.app.kernel.clock, { workspaceId: h.a.workspaceId, mode: 'live', scopes: ['leads:read'] })
  })
  after(() => h.close())

  it('records one entry per request: method, path without the query, operation, status, duration, key, address, user agent, error code', async () => {
    const created = await h.request({
      method: 'POST',
      url: '/v2/inbox/conversations',
      key,
      payload: { channel: 'api', contact: { name: 'Ada' } },
      headers: { 'user-agent': 'logs-test/1', 'x-request-id': 'trace-create-1' },
    })
    assert.equal(created.statusCode, 201, created.body)
    const bad = await h.request({ method: 'POST', url: '/v2/inbox/conversations', key, payload: { channel: 'pigeon' }, headers: { 'x-request-id': 'trace-bad-1' } })
    assert.equal(bad.statusCode, 422)
    const missing = await h.request({
      method: 'GET',
      url: '/v2/inbox/conversations/conv_01JD0000000000000000000000?access_token=s3cr3t-in-query',
      key,
      headers: { 'x-request-id': 'trace-missing-1', 'user-agent': 'x'.repeat(1000) },
    })
    assert.equal(missing.statusCode, 404)
    const forbidden = await h.request({ method: 'GET', url: '/v2/inbox/conversations', key: readOnly.key, headers: { 'x-request-id': 'trace-scope-1' } })
    assert.equal(forbidden.statusCode, 403)
    const unrouted = await h.request({ method: 'GET', url: '/v2/no-such-thing', key, headers: { 'x-request-id': 'trace-unrouted-1' } })
    assert.equal(unrouted.statusCode, 404)

    const all = await page(h, `?key_id=${keyId}&limit=100`)
    const byRequest = new Map(all.data.map((e: any) => [e.request_id, e]))
    const c = byRequest.get('trace-create-1') as any
    assert.equal(c.object, 'api_log')
    assert.match(c.id, /^alog_[0-9A-Z]{26}$/)
    assert.equal(c.method, 'POST')
    assert.equal(c.path, '/v2/inbox/conversations')
    assert.equal(c.operation_id, 'createConversation')
    assert.equal(c.status, 201)
    assert.equal(c.key_id, keyId)
    assert.equal(c.oauth_app_id, null)
    assert.equal(c.ip, '127.0.0.1')
    assert.equal(c.user_agent, 'logs-test/1')
    assert.equal(c.error_code, null)
    assert.ok(c.duration_ms > 0 && c.duration_ms < 10_000, String(c.duration_ms))
    assert.ok(Math.abs(Date.parse(c.created_at) - Date.now()) < 60_000)
    assert.equal((byRequest.get('trace-bad-1') as any).error_code, 'validation_failed')
    const m = byRequest.get('trace-missing-1') as any
    assert.equal(m.path, '/v2/inbox/conversations/conv_01JD0000000000000000000000', 'no query string')
    assert.equal(m.operation_id, 'getConversation')
    assert.equal(m.error_code, 'resource_not_found')
    assert.equal(m.user_agent.length, 256, 'user agent truncated')
    const u = byRequest.get('trace-unrouted-1') as any
    assert.equal(u.operation_id, null)
    assert.equal(u.error_code, 'route_not_found')
    // A key without the scope is still the workspace's key: its 403 is listed under it.
    const f = (await page(h, `?key_id=${readOnly.id}`)).data
    assert.deepEqual(
      f.map((e: any) => [e.request_id, e.status, e.error_code]),
      [['trace-scope-1', 403, 'insufficient_scope']],
    )
    // Newest first.
    const ids = all.data.map((e: any) => e.id)
    assert.deepEqual(ids, [...ids].sort().reverse())
  })

  it('stores no credential, query string or body', async () => {
    const body = { channel: 'api', contact: { name: 'Body Secret', email: 'body.secret@example.com' } }
    await h.request({ method: 'POST', url: '/v2/inbox/conversations?token=query-secret-42', key, payload: body, headers: { 'x-request-id': 'trace-secret-1' } })
    await h.request({ method: 'GET', url: '/v2/api-logs?request_id=trace-secret-1', key })
    await h.app.kernel.apiLogs.flush()
    const rows = await h.app.kernel.db.selectFrom('api_logs').selectAll().execute()
    const dump = JSON.stringify(rows)
    assert.ok(rows.length > 0)
    for (const secret of [key, key.slice(9), h.a.live, readOnly.key, 'query-secret-42', 'body.secret@example.com', 'Body Secret', 'Bearer']) {
      assert.ok(!dump.includes(secret), `the log holds ${secret.slice(0, 12)}…`)
    }
  })

  it('a request with an unknown, revoked or missing key resolves no workspace and is not recorded', async () => {
    const unknown = await h.request({ method: 'GET', url: '/v2/inbox/conversations', key: `svc_live_${'x'.repeat(40)}`, headers: { 'x-request-id': 'trace-unknown-key' } })
    assert.equal(unknown.statusCode, 401)
    const none = await h.request({ method: 'GET', url: '/v2/inbox/conversations', key: null, headers: { 'x-request-id': 'trace-no-key' } })
    assert.equal(none.statusCode, 401)
    await h.app.kernel.apiLogs.flush()
    const rows = await h.app.kernel.db.selectFrom('api_logs').select('id').where('request_id', 'in', ['trace-unknown-key', 'trace-no-key']).execute()
    assert.equal(rows.length, 0)
  })

  it('a live key used on the sandbox URL is listed in its own (live) log as wrong_environment', async () => {
    const r = await h.request({ method: 'GET', url: '/sandbox/v2/inbox/conversations', key, headers: { 'x-request-id': 'trace-wrong-env' } })
    assert.equal(r.statusCode, 401)
    const e = (await page(h, '?request_id=trace-wrong-env')).data
    assert.deepEqual(
      e.map((x: any) => [x.path, x.error_code]),
      [['/sandbox/v2/inbox/conversations', 'wrong_environment']],
    )
  })

  it('each filter narrows the list', async () => {
    // Entries carry the time their response completed: leave a few milliseconds around each boundary.
    await new Promise((r) => setTimeout(r, 5))
    const t0 = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 2))
    for (let i = 0; i < 3; i++) await h.request({ method: 'GET', url: '/v2/leads', key, headers: { 'x-request-id': `trace-f-${i}` } })
    await new Promise((r) => setTimeout(r, 5))
    const mid = new Date().toISOString()
    await new Promise((r) => setTimeout(r, 2))
    await h.request({ method: 'POST', url: '/v2/leads', key, payload: { name: 'Grace' }, headers: { 'x-request-id': 'trace-f-post' } })
    await h.request({ method: 'POST', url: '/v2/leads', key, payload: { nope: 1 }, headers: { 'x-request-id': 'trace-f-422' } })
    const since = `&created_gte=${encodeURIComponent(t0)}`
    // The listing's own calls are logged too (made with another key): left out here.
    const reqIds = async (q: string, from = since) => (await page(h, `?limit=100${from}${q}`)).data.filter((e: any) => e.operation_id !== 'listApiLogs').map((e: any) => e.request_id)
    assert.deepEqual(await reqIds(''), ['trace-f-422', 'trace-f-post', 'trace-f-2', 'trace-f-1', 'trace-f-0'])
    assert.deepEqual(await reqIds('&status=201'), ['trace-f-post'])
    assert.deepEqual(await reqIds('&status=200'), ['trace-f-2', 'trace-f-1', 'trace-f-0'])
    assert.deepEqual(await reqIds('&status_class=4xx'), ['trace-f-422'])
    assert.deepEqual(await reqIds('&status_class=2xx'), ['trace-f-post', 'trace-f-2', 'trace-f-1', 'trace-f-0'])
    assert.deepEqual(await reqIds('&status_class=5xx'), [])
    assert.deepEqual(await reqIds('&method=POST'), ['trace-f-422', 'trace-f-post'])
    assert.deepEqual(await reqIds('&operation_id=listLeads'), ['trace-f-2', 'trace-f-1', 'trace-f-0'])
    assert.deepEqual(await reqIds('&request_id=trace-f-1'), ['trace-f-1'])
    assert.deepEqual(await reqIds(`&key_id=${readOnly.id}`), [])
    assert.deepEqual(await reqIds(`&created_lt=${encodeURIComponent(mid)}`), ['trace-f-2', 'trace-f-1', 'trace-f-0'])
    assert.deepEqual(await reqIds(`&created_gte=${encodeURIComponent(mid)}`, ''), ['trace-f-422', 'trace-f-post'])
    assert.deepEqual(await reqIds('&method=POST&status_class=2xx'), ['trace-f-post'])
    // Cursor pages under a filter.
    const first = await page(h, `?limit=2&operation_id=listLeads${since}`)
    assert.equal(first.has_more, true)
    const second = await page(h, `?limit=2&operation_id=listLeads${since}&cursor=${first.next_cursor}`)
    assert.deepEqual(
      [...first.data, ...second.data].map((e: any) => e.request_id),
      ['trace-f-2', 'trace-f-1', 'trace-f-0'],
    )
    assert.equal(second.has_more, false)
    // The cursor is bound to its filters.
    assertProblem(await get(h, `/api-logs?limit=2&operation_id=createLead&cursor=${first.next_cursor}`), 422, 'invalid_cursor')
  })

  it('another workspace and the sandbox of the same one never see these entries', async () => {
    assert.ok((await page(h)).data.length > 0)
    assert.equal((await page(h, '', h.b.live)).data.filter((e: any) => e.key_id === keyId).length, 0)
    const other = (await page(h, '?limit=100', h.b.live)).data
    assert.ok(
      other.every((e: any) => e.operation_id === 'listApiLogs'),
      'workspace B sees only its own listApiLogs calls',
    )
    const sandbox = await ok(h.request({ method: 'GET', url: '/sandbox/v2/api-logs?limit=100', key: h.a.test }))
    assert.ok(
      sandbox.data.every((e: any) => e.path.startsWith('/sandbox/v2/')),
      'the sandbox log holds only sandbox requests',
    )
    assert.equal((await page(h, `?key_id=${keyId}`, h.b.live)).data.length, 0)
  })

  it('entries reach the database within the flush interval (1 s) without anyone flushing', async () => {
    const t0 = Date.now()
    await h.request({ method: 'GET', url: '/v2/leads', key, headers: { 'x-request-id': 'trace-delay' } })
    let seen = 0
    while (Date.now() - t0 < 3000) {
      const row = await h.app.kernel.db.selectFrom('api_logs').select('id').where('request_id', '=', 'trace-delay').executeTakeFirst()
      if (row) {
        seen = Date.now() - t0
        break
      }
      await new Promise((r) => setTimeout(r, 25))
    }
    assert.ok(seen > 0, 'never written')
    assert.ok(seen <= 1500, `written after ${seen} ms`)
  })

  it('GET /metrics reports the buffer and the entries dropped', async () => {
    const r = await h.app.http.inject({ method: 'GET', url: '/metrics' })
    assert.equal(r.statusCode, 200)
    assert.match(r.body, /^svc_api_logs_dropped_total 0$/m)
    assert.match(r.body, /^svc_api_logs_pending \d+$/m)
  })

  it('bad filters are 422', async () => {
    assertProblem(await get(h, '/api-logs?status=99'), 422, 'validation_failed')
    assertProblem(await get(h, '/api-logs?status_class=6xx'), 422, 'validation_failed')
    assertProblem(await get(h, '/api-logs?method=FETCH'), 422, 'validation_failed')
    assertProblem(await get(h, '/api-logs?created_gte=yesterday'), 422, 'validation_failed')
    assertProblem(await get(h, '/api-logs?operation_id=drop%20table'), 422, 'validation_failed')
  })
})

describe('API_LOGS=off', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { API_LOGS: 'off' } })))
  after(() => h.close())

  it('records nothing and lists nothing', async () => {
    await ok(get(h, '/leads'))
    await ok(get(h, '/leads'))
    const r = await page(h)
    assert.deepEqual(r.data, [])
    assert.equal(
      Number(
        (
          await h.app.kernel.db
            .selectFrom('api_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
      0,
    )
  })
})
