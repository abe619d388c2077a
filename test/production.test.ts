import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { allMessageIds, call, drive, jobStates, settle, setup } from './production.support.js'
import { startServer } from './spawn.js'

// Production operation: crash safety (SIGKILL) and graceful shutdown (SIGTERM). API/worker roles: production-roles.test.ts.
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
    assert.deepEqual(
      states.rows.filter((r) => r.status === 'running'),
      [],
      'a job still holds a lease after shutdown',
    )
    server = await startServer(env)
    const present = await allMessageIds(server, key, conv)
    for (const id of load.acked.values()) assert.ok(present.has(id), `acknowledged message ${id} is missing`)
    await server.stop()
  })
})
