import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { pino } from 'pino'
import { createTestApp, ENGINE, type TestApp } from '../../../test/helpers.js'
import { claimJobs, completeJobs, defineJob, enqueue, enqueueMany, leaseOf, type ExhaustedInfo } from './jobs.js'
import { JobRunner } from './runner.js'

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
    assert.deepEqual(
      claimed.map((j) => status[j.id]),
      ['succeeded', 'succeeded', 'running'],
    )
  })

  it('dead-letters a job whose lease expired on its last attempt instead of claiming it again, and tells its module', async () => {
    const { db, engine } = h.app.kernel.database
    const clock = h.app.kernel.clock
    const ran: number[] = []
    const told: { payload: { n: number }; info: ExhaustedInfo }[] = []
    const crashing = defineJob<{ n: number }>({
      name: 'test.crashing',
      retrySchedule: [0, 0],
      run: async (p) => void ran.push(p.n),
      onExhausted: async (payload, info) => void told.push({ payload, info }),
    })
    h.app.kernel.jobs.register(crashing)
    const id = await h.app.kernel.transaction(null, (tx) => enqueue(tx, clock, crashing, { n: 7 }))
    const expire = () => db.updateTable('jobs').set({ locked_until: '2000-01-01T00:00:00.000Z' }).where('id', '=', id).execute()
    const row = () => db.selectFrom('jobs').select(['status', 'attempts', 'max_attempts', 'last_error', 'locked_by']).where('id', '=', id).executeTakeFirstOrThrow()
    // Three processes claim it in turn and die holding it (the lease expires each time).
    assert.ok((await claimJobs(db, engine, clock, 'dead-1', 100, 60)).some((j) => j.id === id))
    for (const worker of ['dead-2', 'dead-3']) {
      await expire()
      assert.ok(
        (await claimJobs(db, engine, clock, worker, 100, 60, true)).some((j) => j.id === id),
        `${worker} takes it over`,
      )
      assert.match(String((await row()).last_error), /lease expired/)
    }
    await expire()
    assert.deepEqual({ ...(await row()), last_error: null }, { status: 'running', attempts: 3, max_attempts: 3, last_error: null, locked_by: 'dead-3' })
    // Its attempts are spent: a takeover no longer claims it (it would only kill the next process too).
    assert.ok(!(await claimJobs(db, engine, clock, 'dead-4', 100, 60, true)).some((j) => j.id === id))
    assert.equal((await row()).attempts, 3)
    // The runner dead-letters it and tells the job's module; the handler never runs again.
    await h.app.kernel.jobs.drain()
    assert.deepEqual(await row(), { status: 'failed', attempts: 3, max_attempts: 3, last_error: 'lease expired after 3 attempts: the process running it died', locked_by: null })
    assert.deepEqual(ran, [])
    assert.deepEqual(told, [{ payload: { n: 7 }, info: { jobId: id, attempts: 3, error: 'lease expired after 3 attempts: the process running it died', leaseExpired: true } }])
    await h.app.kernel.jobs.drain()
    assert.equal(told.length, 1, 'told once')
  })

  it('tells the module when the last attempt fails', async () => {
    const clock = h.app.kernel.clock
    const told: ExhaustedInfo[] = []
    const failing = defineJob<{ n: number }>({
      name: 'test.failing',
      retrySchedule: [],
      run: async () => {
        throw new Error('provider down')
      },
      onExhausted: async (_p, info) => void told.push(info),
    })
    h.app.kernel.jobs.register(failing)
    const id = await h.app.kernel.transaction(null, (tx) => enqueue(tx, clock, failing, { n: 1 }))
    await h.app.kernel.jobs.drain()
    const row = await h.app.kernel.db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('id', '=', id).executeTakeFirstOrThrow()
    assert.deepEqual(row, { status: 'failed', attempts: 1, last_error: 'provider down' })
    assert.deepEqual(told, [{ jobId: id, attempts: 1, error: 'provider down', leaseExpired: false }])
  })

  it('logs a run that fails outside any handler, and the process goes on (no unhandled rejection)', async () => {
    const { kernel } = h.app
    const lines: string[] = []
    const log = pino({ level: 'error' }, { write: (line: string) => void lines.push(line) })
    // A job this runner has no handler for: recording that goes through the observer, which throws here (a
    // metrics bug), so the run itself rejects, with nobody awaiting it until stop().
    const observer = {
      onJobFinished: () => {
        throw new Error('metrics broke')
      },
    }
    const runner = new JobRunner(kernel.database, kernel.clock, log, { concurrency: 1, pollIntervalMs: 20, leaseSeconds: 30 }, observer)
    const unhandled: unknown[] = []
    const onUnhandled = (reason: unknown) => void unhandled.push(reason)
    process.on('unhandledRejection', onUnhandled)
    try {
      const orphan = defineJob<{ n: number }>({ name: 'test.orphan', retrySchedule: [1], run: async () => {} })
      await kernel.transaction(null, (tx) => enqueue(tx, kernel.clock, orphan, { n: 1 }))
      runner.start()
      for (let i = 0; i < 250 && !lines.some((l) => l.includes('job run failed outside its handler')); i++) await sleep(20)
      await runner.stop(1000)
      await sleep(50) // an unhandled rejection is reported after the microtasks of its turn
    } finally {
      process.off('unhandledRejection', onUnhandled)
    }
    assert.deepEqual(unhandled, [])
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'job run failed outside its handler; the lease will expire')
    assert.equal(logged?.job, 'test.orphan')
    assert.equal(logged?.err?.message, 'metrics broke')
  })
})
