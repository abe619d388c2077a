import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, ENGINE, type TestApp } from '../../../test/helpers.js'
import { claimJobs, completeJobs, defineJob, enqueue, enqueueMany, leaseOf } from './jobs.js'

describe(`job leases (${ENGINE})`, () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())
  const def = defineJob<{ n: number }>({ name: 'test.lease', retrySchedule: [1], run: async () => {} })

  it('a run whose lease was taken over, even by the same worker, cannot complete the job', async () => {
    const { db, engine } = h.app.kernel.database
    const clock = h.app.kernel.clock
    const id = await h.app.kernel.transaction(null, (tx) => enqueue(tx, clock, def, { n: 1 }))
    const [first] = (await claimJobs(db, engine, clock, 'w1', 100, 60)).filter((j) => j.id === id)
    assert.ok(first)
    // The lease expires; the same worker takes the job over (a later claim).
    await db.updateTable('jobs').set({ locked_until: '2000-01-01T00:00:00.000Z' }).where('id', '=', id).execute()
    const [again] = (await claimJobs(db, engine, clock, 'w1', 100, 60, true)).filter((j) => j.id === id)
    assert.ok(again)
    await completeJobs(db, clock, [leaseOf(first, 'w1')])
    assert.equal((await db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status, 'running', 'the first run completed nothing')
    await completeJobs(db, clock, [leaseOf(again, 'w1')])
    assert.equal((await db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status, 'succeeded')
  })

  it('completes the jobs of several claims in one call, each only under its own lease', async () => {
    const { db, engine } = h.app.kernel.database
    const clock = h.app.kernel.clock
    const ids = await h.app.kernel.transaction(null, (tx) => enqueueMany(tx, clock, def, [{ payload: { n: 1 } }, { payload: { n: 2 } }, { payload: { n: 3 } }]))
    const claimed = (await claimJobs(db, engine, clock, 'w2', 100, 60)).filter((j) => ids.includes(j.id))
    assert.equal(claimed.length, 3)
    const leases = claimed.map((j) => leaseOf(j, 'w2'))
    leases[2] = { ...leases[2], lockedUntil: 'another claim' }
    await completeJobs(db, clock, leases)
    const rows = await db.selectFrom('jobs').select(['id', 'status']).where('id', 'in', ids).execute()
    const status = Object.fromEntries(rows.map((r) => [r.id, r.status]))
    assert.deepEqual(claimed.map((j) => status[j.id]), ['succeeded', 'succeeded', 'running'])
  })
})
