import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { createDatabase } from '../src/kernel/db/database.js'
import '../src/kernel/db/kernel.tables.js'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { freePort, startServer, svc, type ServerProcess } from './spawn.js'

// Production operation: crash safety (SIGKILL), graceful shutdown (SIGTERM), and API/worker roles.
const BASE_ENV = { JOB_LEASE_SECONDS: '2', JOB_POLL_INTERVAL_MS: '50', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '1000000' }

async function setup(db: TestDatabase, opts: { sandbox?: boolean } = {}) {
  const env = { ...db.env, ...BASE_ENV }
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Ops', '--json'], env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, ...(opts.sandbox ? ['--sandbox'] : []), '--json'], env)).key as string
  return { env, key, workspaceId: ws.id as string }
}

const call = (s: ServerProcess, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(s.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** Concurrent writers sending messages with Idempotency-Keys until stopped; returns what was answered 2xx. */
function drive(s: ServerProcess, key: string, conv: string, base = '/v2', writers = 6) {
  const acked = new Map<string, string>() // idempotency key → message id
  let running = true
  let n = 0
  const loops = Array.from({ length: writers }, async (_, w) => {
    while (running) {
      const idem = `w${w}-${n++}`
      try {
        const r = await call(s, key, 'POST', `${base}/inbox/conversations/${conv}/messages`, { content: `message ${idem}` }, { 'idempotency-key': idem })
        if (r.status >= 200 && r.status < 300) acked.set(idem, ((await r.json()) as { id: string }).id)
        else await r.text()
      } catch {
        await new Promise((r) => setTimeout(r, 20)) // server gone: keep trying until stopped
      }
    }
  })
  return {
    acked,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

async function allMessageIds(s: ServerProcess, key: string, conv: string, base = '/v2'): Promise<Set<string>> {
  const ids = new Set<string>()
  let cursor: string | null = null
  do {
    const r = await call(s, key, 'GET', `${base}/inbox/conversations/${conv}/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(r.status, 200)
    const page = (await r.json()) as { data: { id: string }[]; next_cursor: string | null }
    for (const m of page.data) ids.add(m.id)
    cursor = page.next_cursor
  } while (cursor)
  return ids
}

async function jobStates(db: TestDatabase) {
  const d = createDatabase(db.env.DATABASE_URL, { schema: db.env.DATABASE_SCHEMA })
  try {
    const rows = await d.db.selectFrom('jobs').select(['status', 'name', 'attempts']).execute()
    const events = await d.db.selectFrom('events').select(['type', 'data']).where('type', '=', 'message.created').execute()
    return { rows, messageEvents: new Set(events.map((e) => (JSON.parse(e.data) as { object: { id: string } }).object.id)) }
  } finally {
    await d.close()
  }
}

async function settle(db: TestDatabase, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const s = await jobStates(db)
    const open = s.rows.filter((r) => (r.status === 'pending' || r.status === 'running') && r.name !== 'compliance.worker')
    if (open.length === 0 || Date.now() > deadline) return s
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe(`crash safety and graceful shutdown (${ENGINE})`, () => {
  let db: TestDatabase
  before(async () => (db = await createTestDatabase()))
  after(() => db.drop())

  it('SIGKILL mid-load: every write answered 2xx is present after restart, and no job is lost', async () => {
    // In the sandbox, where an http:// receiver may subscribe: every message.created must reach it.
    const { env, key } = await setup(db, { sandbox: true })
    const received = new Set<string>()
    const receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.add((JSON.parse(body) as { data: { object: { id: string } } }).data.object.id)
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    let server = await startServer(env)
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
    assert.equal((await call(server, key, 'POST', '/sandbox/v2/webhooks/endpoints', { url: hook, event_types: ['message.created'] })).status, 201)
    const conv = ((await (await call(server, key, 'POST', '/sandbox/v2/inbox/conversations', { channel: 'api' })).json()) as { id: string }).id
    const load = drive(server, key, conv, '/sandbox/v2')
    await new Promise((r) => setTimeout(r, 1500))
    server.child.kill('SIGKILL')
    await server.exited
    await load.stop()
    assert.ok(load.acked.size > 10, `only ${load.acked.size} writes before the kill`)

    server = await startServer(env)
    const present = await allMessageIds(server, key, conv, '/sandbox/v2')
    for (const [idem, id] of load.acked) assert.ok(present.has(id), `acknowledged message ${id} (${idem}) is missing`)
    // The idempotency store survived too: a retry of an acknowledged write is a replay, not a new message.
    const [someKey, someId] = [...load.acked][0]
    const replay = await call(server, key, 'POST', `/sandbox/v2/inbox/conversations/${conv}/messages`, { content: `message ${someKey}` }, { 'idempotency-key': someKey })
    assert.equal(replay.status, 201)
    assert.equal(replay.headers.get('idempotent-replayed'), 'true')
    assert.equal(((await replay.json()) as { id: string }).id, someId)

    // Jobs interrupted by the kill are taken over after their lease; none stays pending or running,
    // and every acknowledged message's event was delivered.
    const jobs = await settle(db)
    // The compliance worker is a recurring job: one run is always queued for its next slot, by design.
    const open = jobs.rows.filter((r) => (r.status === 'pending' || r.status === 'running') && r.name !== 'compliance.worker')
    assert.deepEqual(open, [], 'jobs left behind')
    for (const id of load.acked.values()) {
      assert.ok(jobs.messageEvents.has(id), `no message.created event for ${id}`)
      assert.ok(received.has(id), `the delivery of message ${id} was lost`)
    }
    await server.stop()
    receiver.close()
  })

  it('SIGTERM under load: exits 0, every 2xx write is persisted, no job is left in a lease', async () => {
    const { env, key } = await setup(db)
    let server = await startServer(env)
    const conv = ((await (await call(server, key, 'POST', '/v2/inbox/conversations', { channel: 'api' })).json()) as { id: string }).id
    const load = drive(server, key, conv)
    await new Promise((r) => setTimeout(r, 1500))
    const code = await server.stop('SIGTERM')
    await load.stop()
    assert.equal(code, 0, server.output())
    const states = await jobStates(db)
    assert.deepEqual(states.rows.filter((r) => r.status === 'running'), [], 'a job still holds a lease after shutdown')
    server = await startServer(env)
    const present = await allMessageIds(server, key, conv)
    for (const id of load.acked.values()) assert.ok(present.has(id), `acknowledged message ${id} is missing`)
    await server.stop()
  })
})

describe('two API processes and one worker on PostgreSQL + Redis', { skip: ENGINE !== 'postgres' ? 'needs PostgreSQL' : false }, () => {
  let db: TestDatabase
  let api1: ServerProcess
  let api2: ServerProcess
  let worker: ServerProcess
  let receiver: Server
  const received = new Map<string, number>()
  let ctx: Awaited<ReturnType<typeof setup>>

  before(async () => {
    db = await createTestDatabase('postgres')
    ctx = await setup(db, { sandbox: true })
    const env = { ...ctx.env, RATE_LIMIT_PER_MINUTE: '150' }
    api1 = await startServer({ ...env, SVC_ROLE: 'api' })
    api2 = await startServer({ ...env, SVC_ROLE: 'api' })
    worker = await startServer({ ...env, SVC_ROLE: 'worker' })
    const port = await freePort()
    receiver = createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        const id = String(req.headers['svc-event-id'])
        received.set(id, (received.get(id) ?? 0) + 1)
        res.writeHead(200).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(port, '127.0.0.1', r))
    const ep = await call(api1, ctx.key, 'POST', '/sandbox/v2/webhooks/endpoints', { url: `http://127.0.0.1:${port}/hook`, event_types: ['message.created'] })
    assert.equal(ep.status, 201, await ep.clone().text())
  })
  after(async () => {
    await Promise.all([api1?.stop(), api2?.stop(), worker?.stop()])
    receiver?.close()
    await db.drop()
  })

  it('shares idempotency and the rate limit, and runs each job once', async () => {
    const conv = ((await (await call(api1, ctx.key, 'POST', '/sandbox/v2/inbox/conversations', { channel: 'api' })).json()) as { id: string }).id
    const ids = new Set<string>()
    // 40 messages, each sent to both APIs at once with the same Idempotency-Key.
    for (let i = 0; i < 40; i++) {
      const body = { content: `hello ${i}` }
      const rs = await Promise.all([api1, api2].map((s) => call(s, ctx.key, 'POST', `/sandbox/v2/inbox/conversations/${conv}/messages`, body, { 'idempotency-key': `both-${i}` })))
      for (const r of rs) {
        assert.ok(r.status === 201 || r.status === 409, String(r.status))
        if (r.status === 201) ids.add(((await r.json()) as { id: string }).id)
        else await r.text()
      }
    }
    assert.equal(ids.size, 40, 'one message per Idempotency-Key across both processes')

    // The worker (no HTTP) delivers every message.created event exactly once.
    const deadline = Date.now() + 20_000
    while (received.size < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100))
    assert.equal(received.size, 40)
    assert.ok([...received.values()].every((n) => n === 1), 'an event was delivered twice')
    const jobs = await settle(db)
    // The recurring compliance worker always has its next slot queued; every other job ran once.
    const ran = jobs.rows.filter((j) => j.name !== 'compliance.worker')
    assert.ok(ran.every((j) => j.status === 'succeeded' && j.attempts === 1), JSON.stringify(ran.filter((j) => j.attempts !== 1 || j.status !== 'succeeded')))

    // One rate-limit budget for both API processes.
    const k2 = JSON.parse(await svc(['keys', 'create', '--scopes', 'read', '--workspace', ctx.workspaceId, '--sandbox', '--json'], ctx.env)).key
    let last = 0
    const statuses: number[] = []
    for (let i = 0; i < 151; i++) {
      last = (await call(i % 2 ? api1 : api2, k2, 'GET', '/sandbox/v2/workspaces/current')).status
      statuses.push(last)
    }
    assert.ok(statuses.slice(0, 150).every((s) => s === 200))
    assert.equal(last, 429)
  })
})
