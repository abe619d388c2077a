import assert from 'node:assert/strict'
import { randomBytes, randomInt } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import { createTestApp, REDIS_URL, type TestApp } from './helpers.js'

// Deployments sharing one Redis (REDIS_KEY_PREFIX): each counts its own rate limits and hears only its own
// live feed. `twin` shares `one`'s prefix and shows that the counters and channel are in Redis at all.

describe('REDIS_KEY_PREFIX keeps deployments on one Redis apart', () => {
  const prefix = (name: string) => `${name}-${randomBytes(4).toString('hex')}:`
  const shared = prefix('one')
  const other = prefix('other')
  // A client address of this run alone (the anonymous bucket is per address).
  const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`
  let one: TestApp
  let twin: TestApp
  let apart: TestApp
  let redis: Redis

  before(async () => {
    const env = (p: string) => ({ REDIS_URL, REDIS_KEY_PREFIX: p, RATE_LIMIT_PER_MINUTE: '3', EVENT_FEED_BUS: 'redis' })
    one = await createTestApp({ env: env(shared) })
    twin = await createTestApp({ env: env(shared) })
    apart = await createTestApp({ env: env(other) })
    redis = new Redis(REDIS_URL)
  })
  after(async () => {
    await Promise.all([one, twin, apart].map((h) => h?.close()))
    redis?.disconnect()
  })

  const anonymous = (h: TestApp, url = '/v2/workspaces/current') => h.request({ method: 'GET', url, key: null, remoteAddress: ip })

  it('counts rate limits per prefix: another prefix starts afresh, the same prefix shares the budget', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await anonymous(one)).statusCode, 401)
    assert.equal((await anonymous(one)).statusCode, 429)

    const fresh = await anonymous(apart)
    assert.equal(fresh.statusCode, 401, 'another prefix has its own counter')
    assert.equal(fresh.headers['x-ratelimit-remaining'], '2')
    assert.equal((await anonymous(twin)).statusCode, 429, 'the same prefix shares the counter through Redis')

    // A route's own limit (the widget script's per-address one) is counted under the prefix too.
    assert.equal((await anonymous(one, '/widget/v1/widget.js')).statusCode, 200)
    const keys = await redis.keys(`*${ip}*`)
    assert.ok(
      keys.some((k) => k.includes('widget-ip:')),
      keys.join(' '),
    )
    assert.ok(keys.length >= 3, keys.join(' '))
    for (const k of keys) assert.ok(k.startsWith(shared) || k.startsWith(other), `${k} is under a prefix`)
    assert.ok(keys.some((k) => k.startsWith(other)))
  })

  it('carries live signals only between apps with the same prefix', async () => {
    assert.deepEqual(
      [one, twin, apart].map((h) => h.app.kernel.feed.busName),
      ['redis', 'redis', 'redis'],
    )
    const tenant = { workspaceId: `ws_${randomBytes(6).toString('hex')}`, mode: 'live' as const }
    const heard = { twin: [] as unknown[], apart: [] as unknown[] }
    const listen = (h: TestApp, into: unknown[]) => h.app.kernel.feed.subscribe(tenant, { event: () => undefined, signal: (_name, data) => into.push(data) })
    const stops = [listen(twin, heard.twin), listen(apart, heard.apart)]
    try {
      // Subscriptions reach Redis asynchronously: signal until the twin hears one, then a while longer.
      const deadline = Date.now() + 5_000
      while (heard.twin.length === 0 && Date.now() < deadline) {
        one.app.kernel.feed.signal(tenant, 'presence', { state: 'typing' })
        await new Promise((r) => setTimeout(r, 50))
      }
      assert.ok(heard.twin.length > 0, 'the same prefix hears the signal')
      one.app.kernel.feed.signal(tenant, 'presence', { state: 'viewing' })
      await new Promise((r) => setTimeout(r, 300))
      assert.deepEqual(heard.apart, [], 'another prefix hears nothing')
    } finally {
      for (const stop of stops) stop()
    }
  })
})
