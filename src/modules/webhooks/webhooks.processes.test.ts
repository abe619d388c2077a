// The real server as child processes: SIGKILL with deliveries pending, and two processes on one PostgreSQL.
import assert from 'node:assert/strict'
import type { ChildProcess } from 'node:child_process'
import { after, describe, it } from 'node:test'
import { ENGINE, createTestDatabase, type TestDatabase } from '../../../test/helpers.js'
import { api, createKey, exited, freePort, startReceiver, startServer, waitFor, type Receiver } from './webhooks.testkit.js'

function serverEnv(db: TestDatabase, port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...db.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMIT_PER_MINUTE: '100000',
    JOB_POLL_INTERVAL_MS: '50',
    // Attempts cut off by SIGKILL are taken over once their lease expires.
    JOB_LEASE_SECONDS: '3',
    SHUTDOWN_TIMEOUT_MS: '1000',
    ...extra,
  }
}

describe('webhook delivery across process crashes and processes', () => {
  const children: ChildProcess[] = []
  const cleanup: (() => Promise<void>)[] = []
  after(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL')
    await Promise.all(children.map(exited))
    for (const f of cleanup) await f()
  })

  it('loses no delivery when the server is SIGKILLed while deliveries are pending or in flight', { timeout: 150_000 }, async () => {
    const db = await createTestDatabase()
    cleanup.push(() => db.drop())
    // Phase 1: the receiver holds some requests open (in flight at the kill) and fails the others (pending retries).
    let phase = 1
    const arrived = new Map<string, number>()
    const rx: Receiver = await startReceiver((r, n) => {
      if (phase === 1) return n % 2 === 0 ? { hang: true } : { status: 503 }
      const id = JSON.parse(r.body).id as string
      arrived.set(id, (arrived.get(id) ?? 0) + 1)
      return { status: 200 }
    })
    cleanup.push(() => rx.close())
    const port = await freePort()
    const env = serverEnv(db, port)
    const key = createKey(env)
    let server = await startServer(env)
    children.push(server)
    // Subscribed to its test events alone: the compliance worker's evidence reports (five events, at each
    // 10-minute slot) would add deliveries when a slow run crosses a slot.
    const ep = await api(port, key, 'POST', '/webhooks/endpoints', { url: rx.url, event_types: ['webhook.test'] })
    const eventIds: string[] = []
    for (let i = 0; i < 20; i++) eventIds.push((await api(port, key, 'POST', `/webhooks/endpoints/${ep.id}/test`)).event_id)
    await waitFor(() => rx.requests.length >= 10, 10_000, 'first attempts')
    server.kill('SIGKILL')
    await exited(server)
    phase = 2
    server = await startServer(env)
    children.push(server)
    // Pending retries resume at once; attempts cut off by the kill resume when their lease (60 s) expires.
    await waitFor(() => eventIds.every((id) => arrived.has(id)), 120_000, 'every event delivered after the restart')
    const list = await api(port, key, 'GET', `/webhooks/deliveries?endpoint_id=${ep.id}&limit=100`)
    assert.equal(list.data.length, 20)
    await waitFor(async () => (await api(port, key, 'GET', `/webhooks/deliveries?endpoint_id=${ep.id}&status=succeeded&limit=100`)).data.length === 20, 10_000)
    server.kill('SIGTERM')
    await exited(server)
  })

  it('two server processes on one PostgreSQL deliver 500 events: every event arrives, none twice', { timeout: 180_000 }, async (t) => {
    if (ENGINE !== 'postgres') return t.skip('needs PostgreSQL (TEST_DB=postgres)')
    const db = await createTestDatabase()
    cleanup.push(() => db.drop())
    const seen = new Map<string, number>()
    const byDelivery = new Map<string, number>()
    const rx = await startReceiver((r) => {
      const id = JSON.parse(r.body).id as string
      seen.set(id, (seen.get(id) ?? 0) + 1)
      const d = r.headers['svc-delivery-id'] as string
      byDelivery.set(d, (byDelivery.get(d) ?? 0) + 1)
      return { status: 200 }
    })
    cleanup.push(() => rx.close())
    const ports = [await freePort(), await freePort()]
    const envs = ports.map((p) => serverEnv(db, p))
    const key = createKey(envs[0])
    const a = await startServer(envs[0])
    children.push(a)
    const b = await startServer(envs[1])
    children.push(b)
    const ep = await api(ports[0], key, 'POST', '/webhooks/endpoints', { url: rx.url, event_types: ['webhook.test'] })
    const ids: string[] = []
    // Produce the events through both processes, 25 at a time.
    for (let i = 0; i < 500; i += 25) {
      const batch = await Promise.all(Array.from({ length: 25 }, (_, j) => api(ports[(i + j) % 2], key, 'POST', `/webhooks/endpoints/${ep.id}/test`)))
      ids.push(...batch.map((d) => d.event_id))
    }
    await waitFor(() => ids.every((id) => seen.has(id)), 120_000, 'all 500 events')
    await new Promise((r) => setTimeout(r, 1000))
    assert.equal(seen.size, 500)
    assert.deepEqual(
      [...seen.values()].filter((n) => n !== 1),
      [],
      'no event twice',
    )
    assert.equal(rx.requests.length, 500)
    a.kill('SIGTERM')
    b.kill('SIGTERM')
    await Promise.all([exited(a), exited(b)])
  })
})
