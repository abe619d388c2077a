import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../../test/helpers.js'
import { freePort, startServer, svc } from '../../../../test/spawn.js'
import { startTwilioServer } from './twilio.testkit.js'

// Twilio takes no idempotency key for calls. A service process SIGKILLed while Twilio is creating the call
// (the call exists there; its answer never came back) must not place it again after the restart: the
// status callback, which carries our call id, binds the call Twilio made.
describe(`Twilio call placement across a SIGKILL (${ENGINE})`, () => {
  let db: TestDatabase
  before(async () => (db = await createTestDatabase()))
  after(() => db.drop())

  it('the call is placed once, and its first callback binds it', async () => {
    const tw = await startTwilioServer()
    const port = await freePort()
    const env = {
      ...db.env,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JOB_LEASE_SECONDS: '2',
      JOB_POLL_INTERVAL_MS: '50',
      OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_PER_MINUTE: '1000000',
    }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Calls', '--json'], env))
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key
    let server = await startServer(env)
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(`${server.url}/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await r.text()
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${text}`)
      return JSON.parse(text)
    }
    const placements = () => tw.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json')).length
    try {
      await call('PATCH', `/workspaces/${ws.id}`, { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url } })
      const num = await call('POST', '/voice/numbers', { country: 'US', greeting: 'Hello from Calls.' })
      tw.failNext('hold')
      const created = await call('POST', '/voice/calls', { from_number_id: num.id, to: '+14155550123' })
      while (tw.calls.size < 1) await sleep(5)
      server.child.kill('SIGKILL')
      await server.exited
      server = await startServer(env)
      // Past the lease: the placement job is taken over and finds the call marked as being placed.
      await sleep(4000)
      assert.equal(placements(), 1, 'not placed again')
      assert.equal((await call('GET', `/voice/calls/${created.id}`)).status, 'queued')
      const [sid] = [...tw.calls.keys()]
      assert.equal(await tw.advance(sid, 'ringing'), 204)
      assert.equal(await tw.advance(sid, 'in-progress'), 204)
      const now = await call('GET', `/voice/calls/${created.id}`)
      assert.equal(now.status, 'in_progress')
      assert.equal(placements(), 1)
    } finally {
      await server.stop('SIGKILL')
      await tw.close()
    }
  })
})
