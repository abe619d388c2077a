import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../../test/helpers.js'
import { startServer, svc } from '../../../../test/spawn.js'
import { startHubSpotServer } from '../crm/hubspot.testkit.js'

// A service process SIGKILLed in the middle of syncs: after a restart every lead is synced and the CRM
// holds exactly one contact per lead, although its search lags its writes (a retry's search misses the
// contact the killed attempt created; the create's 409 "Existing ID" is what finds it).
describe(`lead sync across a SIGKILL (${ENGINE})`, () => {
  let db: TestDatabase
  before(async () => (db = await createTestDatabase()))
  after(() => db.drop())

  it('no duplicate contact after a worker dies mid-sync', async () => {
    const hs = await startHubSpotServer({ searchDelayMs: 60_000 })
    const env = { ...db.env, JOB_LEASE_SECONDS: '2', JOB_POLL_INTERVAL_MS: '50', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '1000000' }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Sync', '--json'], env))
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
    try {
      await call('PATCH', `/workspaces/${ws.id}`, { crm: { provider: 'hubspot', base_url: hs.url, access_token: hs.token } })
      const leads = []
      for (let i = 0; i < 8; i++) leads.push(await call('POST', '/leads', { name: `Lead ${i}`, email: `lead${i}@example.com` }))
      for (const l of leads) await call('POST', `/leads/${l.id}/sync`, {})
      // Die as soon as the CRM has created the first contacts: their answers may not have been recorded.
      while (hs.contacts.size < 2) await sleep(5)
      server.child.kill('SIGKILL')
      await server.exited
      server = await startServer(env)
      const deadline = Date.now() + 60_000
      for (const l of leads) {
        for (;;) {
          const now = await call('GET', `/leads/${l.id}`)
          if (now.crm.sync_status === 'synced') {
            assert.equal(now.crm.external_id, hs.findByEmail(l.email)!.id)
            break
          }
          assert.notEqual(now.crm.sync_status, 'failed', JSON.stringify(now.crm))
          if (Date.now() > deadline) assert.fail(`${l.id} still ${JSON.stringify(now.crm)}`)
          await sleep(100)
        }
      }
      const emails = [...hs.contacts.values()].map((c) => c.properties.email).sort()
      assert.deepEqual(emails, leads.map((l) => l.email).sort(), 'one contact per lead')
    } finally {
      await server.stop('SIGKILL')
      await hs.close()
    }
  })
})
