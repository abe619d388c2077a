import assert from 'node:assert/strict'
import { createServer, type Server, type Socket } from 'node:net'
import { Writable } from 'node:stream'
import { after, describe, it } from 'node:test'
import pino from 'pino'
import { createTestApp, json, type TestApp } from './helpers.js'

// REDIS_URL set, Redis not answering: the limits still hold (counted in this process), no request waits for
// Redis, one warning per outage, and /readyz and GET /health say so.

/** A TCP server on 127.0.0.1; `answerInfo`: reply to ioredis's ready check (INFO), then ignore everything. */
async function fakeRedis(mode: 'closed' | 'silent' | 'hangs-after-ready'): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    if (mode !== 'hangs-after-ready') return
    socket.on('data', (chunk) => {
      if (!/info/i.test(chunk.toString('latin1'))) return
      const info = '# Server\r\nredis_version:7.2.0\r\nloading:0\r\n'
      socket.write(`$${Buffer.byteLength(info)}\r\n${info}\r\n`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  const close = async () => {
    for (const s of sockets) s.destroy()
    await new Promise((resolve) => server.close(resolve))
  }
  // A port that was just free and is closed now: connections are refused.
  if (mode === 'closed') await close()
  return { url: `redis://127.0.0.1:${port}`, close: mode === 'closed' ? async () => {} : close }
}

function logSink() {
  const lines: { level: number; msg: string }[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line))
      done()
    },
  })
  return { lines, logger: pino({ level: 'info' }, stream) }
}

describe('rate limits while Redis is unreachable', () => {
  const cleanup: (() => Promise<void>)[] = []
  after(async () => {
    for (const fn of cleanup) await fn()
  })

  for (const mode of ['closed', 'silent', 'hangs-after-ready'] as const) {
    it(`count in this process, stay fast and report redis down (${mode})`, async () => {
      const redis = await fakeRedis(mode)
      cleanup.push(redis.close)
      const sink = logSink()
      const h: TestApp = await createTestApp({
        env: { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '30', REDIS_CONNECT_TIMEOUT_MS: '300', REDIS_COMMAND_TIMEOUT_MS: '800' },
        logger: sink.logger,
      })
      cleanup.unshift(() => h.close())
      const key = await h.key(['read'])
      const statuses: number[] = []
      const took: number[] = []
      for (let i = 0; i < 36; i++) {
        const t = performance.now()
        statuses.push((await h.request({ method: 'GET', url: '/v2/workspaces/current', key })).statusCode)
        took.push(performance.now() - t)
      }
      assert.deepEqual(statuses, [...Array(30).fill(200), ...Array(6).fill(429)], 'the limit of 30 holds')
      // At most one request meets the command timeout (800 ms here); then Redis is left alone for a while.
      assert.ok(took.filter((ms) => ms >= 750).length <= 1, `requests waited for Redis: ${took.map(Math.round).join(' ')}`)
      assert.ok(Math.max(...took) < 3000, `slowest ${Math.round(Math.max(...took))} ms`)
      const warnings = sink.lines.filter((l) => l.level === 40 && /Redis is unreachable/.test(l.msg))
      assert.equal(warnings.length, 1, 'one warning per outage, not per request')

      const ready = await h.request({ method: 'GET', url: '/readyz', key: null })
      assert.equal(ready.statusCode, 200, 'the node still serves: ready, degraded')
      assert.equal(json(ready).status, 'degraded')
      assert.equal(json(ready).dependencies.redis.status, 'down')
      const health = await h.request({ method: 'GET', url: '/v2/health', key: h.a.live })
      assert.equal(health.statusCode, 200, health.body)
      assert.equal(json(health).status, 'degraded')
      assert.equal(json(health).dependencies.redis.status, 'down')
      assert.match(json(health).dependencies.redis.detail, /counted in this process/)
    })
  }

  it('reports redis ok when it answers, and no dependency without REDIS_URL', async () => {
    const h = await createTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' } })
    cleanup.unshift(() => h.close())
    const ready = json(await h.request({ method: 'GET', url: '/readyz', key: null }))
    assert.deepEqual([ready.status, ready.dependencies.redis.status], ['ok', 'ok'])
    const health = json(await h.request({ method: 'GET', url: '/v2/health' }))
    assert.equal(health.dependencies.redis.status, 'ok')
    const plain = await createTestApp({ env: { REDIS_URL: '' } })
    cleanup.unshift(() => plain.close())
    assert.deepEqual(json(await plain.request({ method: 'GET', url: '/readyz', key: null })), { status: 'ok' })
    assert.deepEqual(json(await plain.request({ method: 'GET', url: '/v2/health' })).dependencies, {})
  })
})
