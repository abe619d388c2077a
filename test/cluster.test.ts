import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../src/config.js'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { startServer, svc, type ServerProcess } from './spawn.js'
import { openStream, waitFor } from '../src/modules/live/live.testkit.js'

// WEB_CONCURRENCY: one box, several HTTP processes behind one port (kernel/cluster), on either engine and
// without Redis: one rate-limit budget, one set of metrics, live streams fed on every process, a dead process
// replaced, a clean stop.

/**
 * The cluster's HTTP processes: children of `pid` running the service's entry (src/main.ts, or this run's
 * bundle main.js: test/spawn.ts; tsx, which runs the sources, also starts an esbuild service process under
 * the primary when it has a file to compile).
 */
function childrenOf(pid: number): number[] {
  const out: number[] = []
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      const entry = /(\bsrc\/main\.ts|\/main\.js)\b/.test(readFileSync(`/proc/${name}/cmdline`, 'utf8'))
      if (entry && Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(name))
    } catch {
      /* gone meanwhile */
    }
  }
  return out.sort((a, b) => a - b)
}

/** A GET on a connection of its own, so that node:cluster hands each one to the next process. */
function getFresh(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { ...headers, connection: 'close' } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${url} within 15 s`)))
    req.end()
  })
}

/** A POST on a connection of its own (see getFresh). */
function postFresh(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', connection: 'close' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode!, body: text }))
    })
    req.on('error', reject)
    req.end(JSON.stringify(body))
  })
}

async function until<T>(what: string, fn: () => T | undefined | false, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = fn()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe(`WEB_CONCURRENCY=2 on ${ENGINE}, no Redis`, () => {
  let db: TestDatabase
  let server: ServerProcess
  let key: string
  before(async () => {
    db = await createTestDatabase()
    const env = { ...db.env, REDIS_URL: '', RATE_LIMIT_PER_MINUTE: '10', WEB_CONCURRENCY: '2' }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Cluster', '--json'], env))
    key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key
    server = await startServer(env)
    await until('two HTTP processes', () => childrenOf(server.child.pid!).length === 2, 90_000).catch((e) => {
      throw new Error(
        `${e.message}: ${childrenOf(server.child.pid!)
          .map((c) => `${c} ${readFileSync(`/proc/${c}/cmdline`, 'utf8').replace(/\0/g, ' ')}`)
          .join('; ')} ${server.output()}`,
      )
    })
  })
  after(async () => {
    await server?.stop('SIGKILL')
    await db.drop()
  })

  it('refuses a WEB_CONCURRENCY that is not a whole number from 1, and takes auto', () => {
    for (const bad of ['0', '-1', '1.5', 'two', '1000']) assert.throws(() => loadConfig({ WEB_CONCURRENCY: bad }), /WEB_CONCURRENCY must be/)
    assert.equal(loadConfig({}).webConcurrency, 1)
    assert.ok(loadConfig({ WEB_CONCURRENCY: 'auto' }).webConcurrency >= 1)
  })

  it('counts one rate-limit budget across the processes, and sums their metrics', async () => {
    const k = JSON.parse(
      await svc(
        [
          'keys',
          'create',
          '--scopes',
          'read',
          '--workspace',
          JSON.parse(await (await fetch(`${server.url}/v2/workspaces/current`, { headers: { authorization: `Bearer ${key}` } })).text()).id,
          '--json',
        ],
        db.env,
      ),
    ).key
    const statuses: number[] = []
    const remaining: number[] = []
    // Each request on a new connection: round-robin puts half of them on each process, so separate
    // counters would let all 14 through (7 each, under 10).
    for (let i = 0; i < 14; i++) {
      const r = await getFresh(`${server.url}/v2/workspaces/current`, { authorization: `Bearer ${k}` })
      statuses.push(r.status)
      remaining.push(Number(r.headers['x-ratelimit-remaining']))
    }
    assert.deepEqual(statuses, [...Array(10).fill(200), ...Array(4).fill(429)])
    assert.deepEqual(remaining.slice(0, 10), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0])
    const problem = JSON.parse((await getFresh(`${server.url}/v2/workspaces/current`, { authorization: `Bearer ${k}` })).body)
    assert.equal(problem.code, 'rate_limited')

    // Whichever process serves the scrape, the counts are every process's.
    for (let i = 0; i < 2; i++) {
      const text = (await getFresh(`${server.url}/metrics`, {})).body
      assert.match(text, /^svc_http_requests_total\{operation_id="getCurrentWorkspace",method="GET",status="200"\} 11$/m)
      assert.match(text, /^svc_http_requests_total\{operation_id="getCurrentWorkspace",method="GET",status="429"\} 5$/m)
      // Read from the database once, not once per process.
      assert.equal(text.match(/^svc_job_queue_depth\{status="pending"\}/gm)?.length, 1)
    }
  })

  it('carries events and presence to the event streams of every process', async () => {
    // Four streams on four connections: round-robin spreads them over both processes.
    const streams = await Promise.all([0, 1, 2, 3].map(() => openStream(server.url, '/v2/events/stream?types=conversation.created,presence', key)))
    try {
      const readies = await Promise.all(streams.map((s) => waitFor(() => s.events.find((e) => e.event === 'ready'), 10_000, 'ready')))
      assert.ok(readies.every((r) => JSON.parse(r.data).bus === (ENGINE === 'postgres' ? 'postgres' : 'cluster')))
      const call = async (path: string, body: unknown) => JSON.parse((await postFresh(`${server.url}/v2${path}`, { authorization: `Bearer ${key}` }, body)).body)
      const c = await call('/inbox/conversations', {})
      await Promise.all(streams.map((s) => waitFor(() => s.stored().find((e) => e.data.object.id === c.id), 2000, 'the event on every process')))
      await call(`/inbox/conversations/${c.id}/presence`, { state: 'viewing' })
      await Promise.all(streams.map((s) => waitFor(() => s.presence().find((p) => p.conversation_id === c.id), 2000, 'presence on every process')))
    } finally {
      for (const s of streams) s.close()
    }
  })

  it('replaces a process that dies, and answers meanwhile', async () => {
    const before = childrenOf(server.child.pid!)
    process.kill(before[1], 'SIGKILL')
    // Reaped by the primary (its /proc entry gone): node:cluster hands no more connections to it.
    await until('the killed process reaped', () => !existsSync(`/proc/${before[1]}`))
    for (let i = 0; i < 6; i++) assert.equal((await getFresh(`${server.url}/livez`, {})).status, 200)
    const now = await until('a new HTTP process', () => {
      const c = childrenOf(server.child.pid!)
      return c.length === 2 && !c.includes(before[1]) && c
    })
    assert.ok(now.includes(before[0]))
    assert.match(server.output(), /an HTTP process exited; starting another/)
  })

  it('stops every process on SIGTERM and exits 0', async () => {
    const children = childrenOf(server.child.pid!)
    assert.equal(await server.stop('SIGTERM'), 0, server.output().slice(-3000))
    assert.deepEqual(
      children.filter((pid) => {
        try {
          process.kill(pid, 0)
          return true
        } catch {
          return false
        }
      }),
      [],
    )
  })
})
