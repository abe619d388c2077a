import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../../kernel/clock.js'
import { enqueue } from '../../../../kernel/jobs/jobs.js'
import { createTestApp, events, ok, type TestApp } from '../../../../../test/helpers.js'

const sandboxList = (h: TestApp, url: string, key: string) => ok(h.request({ method: 'GET', url: `/sandbox/v2${url}?limit=100`, key }))
const listed = async (h: TestApp, id: string) => (await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces?limit=100' }))).data.find((s: any) => s.id === id)

describe('the sandbox seeding job', () => {
  let h: TestApp
  const clock = new ManualClock(Date.parse('2026-12-01T09:00:00Z'))
  before(async () => {
    h = await createTestApp({ clock })
  })
  after(() => h.close())

  it('run again on a seeded sandbox, it makes nothing twice (each step is recorded as it is done)', async () => {
    const made = await ok(h.request({ method: 'POST', url: '/v2/sandbox-workspaces', payload: {} }), 202)
    await h.drainJobs()
    const first = await listed(h, made.id)
    assert.equal(first.status, 'ready')
    // As if the lease had expired just before the job marked it ready: the run repeats from the start.
    await h.app.kernel.db.updateTable('developer_sandbox_workspaces').set({ status: 'seeding' }).where('id', '=', made.id).execute()
    await enqueue(h.app.kernel.db, clock, h.app.services.developerSandbox.seedJob, { workspace_id: h.a.workspaceId, mode: 'live', sandbox_id: made.id })
    await h.drainJobs()
    const second = await listed(h, made.id)
    assert.equal(second.status, 'ready')
    assert.deepEqual(second.seeded, first.seeded)
    assert.equal((await sandboxList(h, '/inbox/conversations', made.test_key)).data.length, 3)
    assert.equal((await sandboxList(h, '/leads', made.test_key)).data.length, 3)
    assert.equal((await sandboxList(h, '/webhooks/endpoints', made.test_key)).data.length, 1)
  })

  it('after its last retry a failing seeding marks the sandbox failed with the reason, keeping what it made', async () => {
    const made = await ok(h.request({ method: 'POST', url: '/v2/sandbox-workspaces', payload: { name: 'Doomed' } }), 202)
    // The sandbox's key makes the first sample tag before the job runs: every attempt then meets a duplicate.
    await ok(h.request({ method: 'POST', url: '/sandbox/v2/inbox/tags', key: made.test_key, payload: { name: 'shipping' } }), 201)
    for (let attempt = 0; attempt < 5; attempt++) {
      await h.drainJobs()
      clock.advance(150_000)
    }
    const failed = await listed(h, made.id)
    assert.equal(failed.status, 'failed')
    assert.match(failed.error, /^tag_already_exists: /)
    assert.equal(failed.seeded.webhook_endpoints, 1, 'the steps before the failing one stay done')
    assert.equal((await sandboxList(h, '/webhooks/endpoints', made.test_key)).data.length, 1, 'made once over four attempts')
    assert.ok((await events(h, 'sandbox_workspace.failed')).some((e) => e.id === made.id))
    assert.equal(failed.ready_at, null)
  })
})
