import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from './helpers.js'

const problem = (res: { headers: Record<string, unknown>; body: string }) => {
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
  const p = JSON.parse(res.body)
  for (const f of ['type', 'title', 'status', 'detail', 'instance', 'code', 'request_id']) assert.ok(p[f] !== undefined, `problem lacks ${f}`)
  assert.match(p.type, /^https?:\/\/.+\/api-docs\/errors\/[a-z_]+$/)
  assert.equal(p.request_id, res.headers['x-request-id'])
  return p
}

describe('HTTP contract', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { BODY_LIMIT_BYTES: '2048' } })))
  after(() => h.close())

  describe('X-Request-ID', () => {
    it('echoes a well-formed incoming id on success, errors and unknown routes', async () => {
      for (const [url, status] of [
        ['/v2/workspaces/current', 200],
        ['/v2/workspaces/nope_123', 404],
        ['/v2/no/such/route', 404],
      ] as const) {
        const res = await h.request({ method: 'GET', url, headers: { 'x-request-id': 'client-abc.123:x' } })
        assert.equal(res.statusCode, status)
        assert.equal(res.headers['x-request-id'], 'client-abc.123:x')
      }
    })
    it('replaces a malformed or too long id with a generated one', async () => {
      for (const bad of ['has space', 'x'.repeat(129), 'ünï']) {
        const res = await h.request({ method: 'GET', url: '/v2/workspaces/current', headers: { 'x-request-id': bad } })
        assert.notEqual(res.headers['x-request-id'], bad)
        assert.match(String(res.headers['x-request-id']), /^req_[A-Za-z0-9_-]+$/)
      }
    })
    it('generates distinct ids when none is sent, also on 401', async () => {
      const a = await h.request({ method: 'GET', url: '/v2/workspaces/current', key: null })
      const b = await h.request({ method: 'GET', url: '/v2/workspaces/current', key: null })
      assert.ok(a.headers['x-request-id'] && a.headers['x-request-id'] !== b.headers['x-request-id'])
    })
  })

  describe('errors are RFC 9457 problems', () => {
    it('401 carries WWW-Authenticate and a problem body', async () => {
      const res = await h.request({ method: 'GET', url: '/v2/workspaces/current', key: null })
      assert.equal(res.statusCode, 401)
      assert.match(String(res.headers['www-authenticate']), /^Bearer/)
      assert.equal(problem(res).code, 'unauthorized')
    })
    it('a malformed Authorization header is 401', async () => {
      const res = await h.http().inject({ method: 'GET', url: '/v2/workspaces/current', headers: { authorization: 'Basic abc' } })
      assert.equal(res.statusCode, 401)
      problem(res)
    })
    it('a revoked key is 401', async () => {
      const { revokeApiKey, findPrincipal } = await import('../src/kernel/auth/api-keys.js')
      const key = await h.key(['read'])
      const p = await findPrincipal(h.app.kernel.db, key)
      assert.equal((await h.request({ method: 'GET', url: '/v2/workspaces/current', key })).statusCode, 200)
      await revokeApiKey(h.app.kernel.db, h.app.kernel.clock, p!.keyId)
      const res = await h.request({ method: 'GET', url: '/v2/workspaces/current', key })
      assert.equal(res.statusCode, 401)
      assert.match(problem(res).detail, /revoked/)
    })
    it('malformed JSON is 400', async () => {
      const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, headers: { 'content-type': 'application/json' }, payload: '{"name": ' })
      assert.equal(res.statusCode, 400)
      assert.equal(problem(res).code, 'malformed_json')
    })
    it('an unsupported media type is 415', async () => {
      const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, headers: { 'content-type': 'text/xml' }, payload: '<name>x</name>' })
      assert.equal(res.statusCode, 415)
      assert.equal(problem(res).code, 'unsupported_media_type')
    })
    it('a body over the limit is 413', async () => {
      const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, payload: { name: 'x'.repeat(5000) } })
      assert.equal(res.statusCode, 413)
      assert.equal(problem(res).code, 'payload_too_large')
    })
    it('validation failures are 422 with JSON pointers', async () => {
      const res = await h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, payload: { email: 'not-an-email', role: 'king', extra: 1 } })
      assert.equal(res.statusCode, 422)
      const p = problem(res)
      assert.equal(p.code, 'validation_failed')
      const pointers = p.errors.map((e: { pointer: string }) => e.pointer)
      assert.ok(pointers.includes('/body/email'), JSON.stringify(p.errors))
      assert.ok(pointers.includes('/body/role'), JSON.stringify(p.errors))
      assert.ok(pointers.includes('/body/extra'), JSON.stringify(p.errors))
    })
    it('a missing required field points at it', async () => {
      const res = await h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, payload: {} })
      assert.equal(res.statusCode, 422)
      assert.deepEqual(
        problem(res).errors.map((e: { pointer: string }) => e.pointer),
        ['/body/email'],
      )
    })
    it('does not coerce body types ("12" is not a number, 12 is not a string)', async () => {
      const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, payload: { name: 12 } })
      assert.equal(res.statusCode, 422)
    })
    it('an unknown route is 404 and a wrong method is 405 with Allow', async () => {
      const nf = await h.request({ method: 'GET', url: '/v2/nothing-here' })
      assert.equal(nf.statusCode, 404)
      assert.equal(problem(nf).code, 'route_not_found')
      const wm = await h.request({ method: 'DELETE', url: '/v2/workspaces/current' })
      assert.equal(wm.statusCode, 405)
      assert.equal(problem(wm).code, 'method_not_allowed')
      assert.match(String(wm.headers.allow), /GET/)
      const wm2 = await h.request({ method: 'PUT', url: `/v2/workspaces/${h.a.workspaceId}` })
      assert.equal(wm2.statusCode, 405)
      assert.deepEqual(String(wm2.headers.allow).split(', ').sort(), ['GET', 'PATCH'])
    })
    it('a 5xx never shows internals (here: the database went away → 503)', async () => {
      // Close the database under the running app: the next query fails for real.
      const h2 = await createTestApp()
      await h2.app.kernel.database.close()
      const res = await h2.request({ method: 'GET', url: '/v2/workspaces/current', key: h2.a.live })
      assert.ok(res.statusCode >= 500, res.body)
      const p = problem(res)
      assert.doesNotMatch(res.body, /sqlite|postgres|kysely|stack|at .*\.ts/i)
      assert.equal(p.code, 'service_unavailable')
      await h2.app.http.close()
      await h2.app.redis?.quit()
    })
  })

  describe('headers on every response', () => {
    it('carries the API version and rate-limit headers, also on 401 and 404', async () => {
      for (const [url, key] of [
        ['/v2/workspaces/current', undefined],
        ['/v2/workspaces/current', null],
        ['/v2/nothing', undefined],
        ['/sandbox/v2/workspaces/current', h.a.test],
      ] as const) {
        const res = await h.request({ method: 'GET', url, key })
        assert.equal(res.headers['svc-api-version'], '2.4.0')
        assert.ok(res.headers['x-ratelimit-limit'], `${url}: no X-RateLimit-Limit`)
        assert.ok(res.headers['x-ratelimit-remaining'])
        const reset = Number(res.headers['x-ratelimit-reset'])
        assert.ok(reset > Date.now() / 1000 && reset <= Date.now() / 1000 + 61, `reset ${reset} is not an epoch in the next minute`)
        assert.match(String(res.headers['ratelimit-policy']), /^"default";q=\d+;w=60$/)
        assert.match(String(res.headers.ratelimit), /^"default";r=\d+;t=\d+$/)
      }
    })
  })

  describe('cursor pagination', () => {
    it('pages newest first without gaps or duplicates, and rejects bad cursors and limits', async () => {
      const ids: string[] = []
      for (let i = 0; i < 7; i++) {
        const r = await h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, payload: { email: `page${i}@example.com` } })
        ids.push(json(r).id)
      }
      const seen: string[] = []
      let cursor: string | null = null
      let pages = 0
      do {
        const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=3${cursor ? `&cursor=${cursor}` : ''}` })
        assert.equal(res.statusCode, 200)
        const body = json(res)
        assert.equal(typeof body.has_more, 'boolean')
        assert.ok('next_cursor' in body)
        seen.push(...body.data.map((m: { id: string }) => m.id))
        cursor = body.next_cursor
        assert.equal(body.has_more, cursor !== null)
        pages++
      } while (cursor)
      assert.equal(new Set(seen).size, seen.length, 'duplicates')
      for (const id of ids) assert.ok(seen.includes(id), 'gap')
      assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first')
      assert.equal(pages, Math.ceil(seen.length / 3))

      for (const limit of ['0', '101', 'abc', '-1']) {
        const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=${limit}` })
        assert.equal(res.statusCode, 422, `limit=${limit}`)
      }
      for (const cursor of ['garbage', Buffer.from('{"k":"mem_1","c":"x"}').toString('base64url')]) {
        const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?cursor=${cursor}` })
        assert.equal(res.statusCode, 422)
        assert.equal(json(res).code, 'invalid_cursor')
      }
      // A cursor of this list is foreign in the other mode (and in any other list or workspace).
      const first = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=1` }))
      const foreign = await h.request({ method: 'GET', url: `/sandbox/v2/workspaces/${h.a.workspaceId}/members?cursor=${first.next_cursor}`, key: h.a.test })
      assert.equal(foreign.statusCode, 422)
      const offset = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?offset=3` })
      assert.equal(offset.statusCode, 422, 'offset pagination is not accepted')
    })
  })

  describe('live and sandbox never mix', () => {
    it('a member invited in the sandbox is invisible on live', async () => {
      const r = await h.request({ method: 'POST', url: `/sandbox/v2/workspaces/${h.a.workspaceId}/members`, key: h.a.test, payload: { email: 'sandbox-only@example.com' } })
      assert.equal(r.statusCode, 201)
      const live = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=100` }))
      assert.ok(!live.data.some((m: { email: string }) => m.email === 'sandbox-only@example.com'))
      const sb = json(await h.request({ method: 'GET', url: `/sandbox/v2/workspaces/${h.a.workspaceId}/members?limit=100`, key: h.a.test }))
      assert.ok(sb.data.some((m: { email: string }) => m.email === 'sandbox-only@example.com'))
    })
  })
})

describe('NUL characters', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('answers 422 (never 500) for U+0000 in a body, a query or a path, on both engines', async () => {
    const body = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, payload: { name: 'a\u0000b' } })
    assert.equal(body.statusCode, 422)
    assert.equal(json(body).errors[0].pointer, '/body/name')
    const query = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?from=%00` })
    assert.equal(query.statusCode, 422)
    const path = await h.request({ method: 'GET', url: `/v2/workspaces/ws_%00x` })
    assert.equal(path.statusCode, 422)
    assert.equal(json(path).errors[0].pointer, '/path/id')
  })
})
