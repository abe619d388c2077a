import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from './helpers.js'

describe('rate limits per API key', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '5' } })))
  after(() => h.close())

  it('counts down, then answers 429 with Retry-After and the rate-limit headers', async () => {
    const key = await h.key(['read'])
    const remaining: number[] = []
    for (let i = 0; i < 5; i++) {
      const res = await h.request({ method: 'GET', url: '/v2/workspaces/current', key })
      assert.equal(res.statusCode, 200)
      assert.equal(res.headers['x-ratelimit-limit'], '5')
      remaining.push(Number(res.headers['x-ratelimit-remaining']))
      assert.match(String(res.headers.ratelimit), new RegExp(`^"default";r=${remaining[i]};t=\\d+$`))
      assert.equal(res.headers['ratelimit-policy'], '"default";q=5;w=60')
    }
    assert.deepEqual(remaining, [4, 3, 2, 1, 0])
    const res = await h.request({ method: 'GET', url: '/v2/workspaces/current', key })
    assert.equal(res.statusCode, 429)
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
    assert.equal(json(res).code, 'rate_limited')
    assert.ok(Number(res.headers['retry-after']) >= 1)
    assert.equal(res.headers['x-ratelimit-remaining'], '0')
    assert.ok(res.headers['x-request-id'])
    assert.ok(Number(res.headers['x-ratelimit-reset']) > Date.now() / 1000)
  })

  it('keeps separate budgets per key, and applies on the sandbox URL too', async () => {
    const k1 = await h.key(['read'])
    for (let i = 0; i < 5; i++) await h.request({ method: 'GET', url: '/v2/workspaces/current', key: k1 })
    assert.equal((await h.request({ method: 'GET', url: '/v2/workspaces/current', key: k1 })).statusCode, 429)
    const k2 = await h.key(['read'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/workspaces/current', key: k2 })).statusCode, 200)
    const t = await h.key(['read'], { mode: 'test' })
    let last = 0
    for (let i = 0; i < 6; i++) last = (await h.request({ method: 'GET', url: '/sandbox/v2/workspaces/current', key: t })).statusCode
    assert.equal(last, 429)
  })

  it('limits invented, malformed and missing keys per client address: a 401 flood hits 429', async () => {
    const { randomBytes } = await import('node:crypto')
    // A fresh address per run: with Redis the buckets outlive this process.
    const ip = `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`
    const from = (authorization?: string) => h.http().inject({ method: 'GET', url: '/v2/workspaces/current', remoteAddress: ip, headers: authorization ? { authorization } : {} })
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) statuses.push((await from('Bearer svc_live_' + randomBytes(32).toString('base64url'))).statusCode)
    assert.deepEqual(statuses.slice(0, 5), [401, 401, 401, 401, 401])
    assert.deepEqual(statuses.slice(5), [429, 429, 429], 'new keys must not open new buckets')
    // The same address without a key, or with a malformed one, shares that bucket.
    assert.equal((await from()).statusCode, 429)
    assert.equal((await from('Bearer nonsense')).statusCode, 429)
    // A real key keeps its own budget.
    const real = await h.key(['read'])
    assert.equal((await from(`Bearer ${real}`)).statusCode, 200)
  })
})
