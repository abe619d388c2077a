import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { call, settle, setup } from './production.support.js'
import { freePort, startServer, svc, type ServerProcess } from './spawn.js'

// Production roles: two API processes and one worker sharing one PostgreSQL and one Redis.
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
    assert.ok(
      [...received.values()].every((n) => n === 1),
      'an event was delivered twice',
    )
    const jobs = await settle(db)
    // The recurring compliance worker always has its next slot queued; every other job ran once.
    const ran = jobs.rows.filter((j) => j.name !== 'compliance.worker')
    assert.ok(
      ran.every((j) => j.status === 'succeeded' && j.attempts === 1),
      JSON.stringify(ran.filter((j) => j.attempts !== 1 || j.status !== 'succeeded')),
    )

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
