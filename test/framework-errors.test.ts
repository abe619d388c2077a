import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from './helpers.js'

// Every answer the service sends — the framework's own 400/404/405/413/414/415 included — is
// problem+json with request_id, X-Request-ID, and (where a request was routed) the rate-limit headers.
function assertContract(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number, code: string, rateLimited = true) {
  assert.equal(res.statusCode, status, res.body)
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
  const p = JSON.parse(res.body)
  assert.equal(p.status, status)
  assert.equal(p.code, code)
  assert.ok(p.request_id, 'request_id')
  assert.equal(p.request_id, res.headers['x-request-id'])
  if (rateLimited) {
    assert.ok(res.headers['x-ratelimit-limit'], 'X-RateLimit-Limit')
    assert.match(String(res.headers.ratelimit), /^"default";r=\d+;t=\d+$/)
  }
}

describe('framework errors keep the contract', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { BODY_LIMIT_BYTES: '1024' } })))
  after(() => h.close())

  it('400: bad percent-encoding in the path', async () => {
    assertContract(await h.request({ method: 'GET', url: '/v2/workspaces/%FF%FE' }), 400, 'bad_request')
  })

  it('400: malformed JSON', async () => {
    const res = await h.request({ method: 'POST', url: '/v2/inbox/conversations', headers: { 'content-type': 'application/json' }, payload: '{"x":' })
    assertContract(res, 400, 'malformed_json')
  })

  it('404 and 405', async () => {
    assertContract(await h.request({ method: 'GET', url: '/v2/nothing-here' }), 404, 'route_not_found')
    assertContract(await h.request({ method: 'DELETE', url: '/v2/inbox/conversations' }), 405, 'method_not_allowed')
  })

  it('413: a body over the limit', async () => {
    const res = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { subject: 'x'.repeat(5000) } })
    assertContract(res, 413, 'payload_too_large')
  })

  it('414: a path parameter over 100 characters, on every operation with one', async () => {
    for (const url of ['/v2/workspaces/' + 'a'.repeat(101), '/v2/inbox/conversations/' + 'c'.repeat(150) + '/messages', '/v2/webhooks/endpoints/' + 'w'.repeat(300)]) {
      assertContract(await h.request({ method: 'GET', url }), 414, 'uri_too_long')
    }
  })

  it('422: a date-time RFC 3339 allows but no Date holds (a leap second), in a body and in a query', async () => {
    const body = await h.request({ method: 'POST', url: '/v2/compliance/dsar', payload: { type: 'access', subject: { email: 'a@example.com' }, due_at: '2026-12-31T23:59:60Z' } })
    assertContract(body, 422, 'validation_failed')
    assert.equal(JSON.parse(body.body).errors[0].pointer, '/body/due_at')
    const query = await h.request({ method: 'GET', url: '/v2/compliance/audit-log?from=2026-12-31T23:59:60Z' })
    assertContract(query, 422, 'validation_failed')
    // An ordinary time still passes.
    assert.equal((await h.request({ method: 'GET', url: '/v2/compliance/audit-log?from=2026-12-31T23:59:59Z' })).statusCode, 200)
  })

  it('415: an unsupported media type', async () => {
    const res = await h.request({ method: 'POST', url: '/v2/inbox/conversations', headers: { 'content-type': 'text/plain' }, payload: 'hi' })
    assertContract(res, 415, 'unsupported_media_type')
  })

  it('answers HTTP the parser refuses with a problem and a request id (400, 431)', async () => {
    const address = await h.http().listen({ port: 0, host: '127.0.0.1' })
    const port = Number(new URL(address).port)
    const raw = (bytes: string) =>
      new Promise<string>((resolve, reject) => {
        const s = connect(port, '127.0.0.1', () => s.write(bytes))
        let out = ''
        s.on('data', (d) => (out += String(d)))
        s.on('end', () => resolve(out))
        s.on('error', reject)
      })
    for (const [bytes, status, code] of [
      ['GARBAGE\r\n\r\n', 400, 'bad_request'],
      [`GET /v2/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'request_header_fields_too_large'],
    ] as const) {
      const out = await raw(bytes)
      const [head, body] = out.split('\r\n\r\n')
      assert.match(head, new RegExp(`^HTTP/1.1 ${status} `))
      assert.match(head, /content-type: application\/problem\+json/i)
      const id = /x-request-id: (\S+)/i.exec(head)?.[1]
      assert.ok(id)
      const p = JSON.parse(body)
      assert.equal(p.code, code)
      assert.equal(p.request_id, id)
    }
  })

  it('the 429 of a framework error is a problem too', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } })
    try {
      const key = await limited.key(['read'])
      for (let i = 0; i < 2; i++) await limited.request({ method: 'GET', url: '/v2/workspaces/%FF', key })
      const res = await limited.request({ method: 'GET', url: '/v2/workspaces/%FF', key })
      assertContract(res, 429, 'rate_limited')
      assert.ok(Number(res.headers['retry-after']) >= 1)
      assert.equal(json(res).status, 429)
    } finally {
      await limited.close()
    }
  })
})
