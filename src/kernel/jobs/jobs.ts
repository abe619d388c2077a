import { sql, SqliteAdapter } from 'kysely'
import { iso, type Clock } from '../clock.js'
import { toJson, type Engine, type Executor } from '../db/database.js'
import { prepared } from '../db/prepared.js'
import { newId } from '../ids.js'
import '../db/kernel.tables.js'
import { currentTraceparent } from '../tracing/tracing.js'

/**
 * A job is declared once: its name, its retry schedule (seconds after each failed attempt; data, not
 * code) and its handler. Handlers must be idempotent: a lease can expire mid-run (crash, pause) and the
 * job then runs again.
 */
export interface JobDefinition<P = any> {
  name: string
  /** Delay in seconds before attempt n+1 after attempt n failed; length+1 = max attempts. */
  retrySchedule: number[] | (() => number[])
  run(payload: P, ctx: JobContext): Promise<void>
  /**
   * Told once the job will not run again: its last attempt failed, or its lease expired on its last attempt
   * (the process running it died — a file that exhausts memory kills it every time). The module records the
   * failure where its users see it (a document `failed` with the reason). Runs before the job is marked
   * failed: a crash in between tells it again on the next takeover, so it must be idempotent and cheap.
   */
  onExhausted?(payload: P, info: ExhaustedInfo): Promise<void>
}

export interface ExhaustedInfo {
  jobId: string
  attempts: number
  /** Why: the last attempt's error, or that the lease expired after the last attempt. */
  error: string
  /** True when no attempt finished: the process running the last one died (lease expired). */
  leaseExpired: boolean
}

export interface JobContext {
  jobId: string
  attempt: number
  /** Ask the runner to retry at a specific time instead of the schedule (e.g. Retry-After). */
  retryAt?: Date
  /** This run's lease, while the runner holds it (absent when a handler is run by hand). */
  lease?: JobLease
  /**
   * Set by a handler that completed its own job with `completeJobs` in the transaction of its effect (the
   * effect and the completion commit together); the runner then does not complete it again.
   */
  completed?: boolean
}

/**
 * What one claim of a job holds: the worker and the lease's expiry, which a later claim (after the lease
 * expired) always changes, so a run that was taken over — even by the same worker — cannot finish the job.
 */
export interface JobLease {
  jobId: string
  workerId: string
  lockedUntil: string
}

export function defineJob<P>(def: JobDefinition<P>): JobDefinition<P> {
  return def
}

export const scheduleOf = (def: JobDefinition): number[] => (typeof def.retrySchedule === 'function' ? def.retrySchedule() : def.retrySchedule)

/** Enqueue inside the caller's transaction: the job exists iff the state change committed. */
export async function enqueue<P>(tx: Executor, clock: Clock, def: JobDefinition<P>, payload: P, opts: { runAt?: Date; id?: string } = {}): Promise<string> {
  const [id] = await enqueueMany(tx, clock, def, [{ payload, ...opts }])
  return id
}

/** Transactions that enqueued a job: only those wake the runner when they commit (kernel.transaction). */
const enqueuedIn = new WeakSet<object>()
export const enqueuedDuring = (tx: Executor): boolean => enqueuedIn.has(tx)

/** Several jobs of one definition in one statement, in the caller's transaction. */
export async function enqueueMany<P>(tx: Executor, clock: Clock, def: JobDefinition<P>, jobs: { payload: P; runAt?: Date; id?: string }[]): Promise<string[]> {
  if (jobs.length === 0) return []
  enqueuedIn.add(tx)
  const now = iso(clock.now())
  const schedule = scheduleOf(def)
  const retrySchedule = toJson(schedule)
  // The enqueuing span (a request, or a job enqueuing the next): the job's span continues its trace.
  const traceparent = currentTraceparent()
  const rows = jobs.map((j) => ({
    id: j.id ?? newId('job'),
    name: def.name,
    payload: toJson(j.payload),
    status: 'pending' as const,
    run_at: j.runAt ? iso(j.runAt) : now,
    attempts: 0,
    max_attempts: schedule.length + 1,
    retry_schedule: retrySchedule,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    traceparent,
  }))
  // SQLite: one prepared insert per job (built once); PostgreSQL: one statement (a round trip) for all.
  if (onSqlite(tx)) for (const row of rows) await insertJobQ.run(tx, row)
  else await tx.insertInto('jobs').values(rows).execute()
  return rows.map((r) => r.id)
}
const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter
const insertJobQ = prepared(
  (
    db,
    row: {
      id: string
      name: string
      payload: string
      status: 'pending'
      run_at: string
      attempts: number
      max_attempts: number
      retry_schedule: string
      locked_by: null
      locked_until: null
      last_error: null
      created_at: string
      updated_at: string
      traceparent: string | null
    },
  ) => db.insertInto('jobs').values(row),
)

export interface ClaimedJob {
  id: string
  name: string
  payload: string
  attempts: number
  max_attempts: number
  retry_schedule: string
  locked_until: string | null
  traceparent: string | null
}

/** What a takeover records on the job: the attempt before it never finished. */
export const LEASE_EXPIRED_ERROR = 'lease expired: the process running the previous attempt died or stalled'
/** The last error of a job dead-lettered by a takeover. */
export const leaseExhaustedError = (attempts: number): string => `lease expired after ${attempts} attempts: the process running it died`

/**
 * Claims up to `limit` due jobs: pending ones whose run_at has come, or (with `expired`) running ones
 * whose lease expired because their worker died, while they have attempts left. On PostgreSQL, SKIP
 * LOCKED lets several workers claim disjoint sets; SQLite has a single writer, so the UPDATE itself is the
 * lock. A claim never takes `attempts` past `max_attempts`: an expired job that has used them all is left
 * to claimExhaustedJobs, which dead-letters it instead of running it again (a job that kills its process
 * would otherwise be re-run at every restart, for ever).
 */
export async function claimJobs(db: Executor, engine: Engine, clock: Clock, workerId: string, limit: number, leaseSeconds: number, expired = false): Promise<ClaimedJob[]> {
  const now = clock.now()
  const nowIso = iso(now)
  const lease = iso(new Date(now.getTime() + leaseSeconds * 1000))
  return claimQ.all(db, { workerId, limit, nowIso, lease, expired, exhausted: false, pg: engine === 'postgres' })
}

/**
 * Claims running jobs whose lease expired on their last attempt, without counting an attempt: the claim
 * only lets this worker tell the job's module (onExhausted) and mark the job failed (deadLetterJob). If
 * this worker dies too, the lease expires again and the next one does it.
 */
export async function claimExhaustedJobs(db: Executor, engine: Engine, clock: Clock, workerId: string, limit: number, leaseSeconds: number): Promise<ClaimedJob[]> {
  const now = clock.now()
  const nowIso = iso(now)
  const lease = iso(new Date(now.getTime() + leaseSeconds * 1000))
  return claimQ.all(db, { workerId, limit, nowIso, lease, expired: true, exhausted: true, pg: engine === 'postgres' })
}

const claimQ = prepared((db, a: { workerId: string; limit: number; nowIso: string; lease: string; expired: boolean; exhausted: boolean; pg: boolean }) => {
  // Two simple predicates, each served by its partial index, instead of one OR the planners scan for.
  // The status is a literal, not a bound parameter: SQLite only matches partial indexes on literals.
  const attemptsLeft = sql<boolean>`attempts ${sql.raw(a.exhausted ? '>=' : '<')} max_attempts`
  let due = a.expired
    ? db
        .selectFrom('jobs')
        .select('id')
        .where(sql<boolean>`status = 'running'`)
        .where('locked_until', '<', a.nowIso)
        .where(attemptsLeft)
        .orderBy('locked_until')
    : db
        .selectFrom('jobs')
        .select('id')
        .where(sql<boolean>`status = 'pending'`)
        .where('run_at', '<=', a.nowIso)
        .orderBy('run_at')
  due = due.limit(a.limit)
  if (a.pg) due = due.forUpdate().skipLocked()
  return (
    db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        locked_by: a.workerId,
        locked_until: a.lease,
        // A dead-letter claim runs nothing: it counts no attempt.
        attempts: a.exhausted ? eb.ref('attempts') : eb('attempts', '+', 1),
        ...(a.expired && !a.exhausted ? { last_error: LEASE_EXPIRED_ERROR } : {}),
        updated_at: a.nowIso,
      }))
      .where('id', 'in', due)
      // Re-check under the lock: the row may have changed between the sub-select and the update.
      .where(
        a.expired
          ? (eb) => eb.and([eb('status', '=', 'running'), eb('locked_until', '<', a.nowIso), attemptsLeft])
          : (eb) => eb.and([eb('status', '=', 'pending'), sql<boolean>`attempts < max_attempts`]),
      )
      .returning(['id', 'name', 'payload', 'attempts', 'max_attempts', 'retry_schedule', 'locked_until', 'traceparent'])
  )
})

/** Marks a job failed for good (its lease expired on its last attempt), only while `lease` still holds it. */
export async function deadLetterJob(db: Executor, clock: Clock, lease: JobLease, error: string): Promise<boolean> {
  const r = await db
    .updateTable('jobs')
    .set({ status: 'failed', locked_by: null, locked_until: null, last_error: error.slice(0, 2000), updated_at: iso(clock.now()) })
    .where('id', '=', lease.jobId)
    .where('locked_by', '=', lease.workerId)
    .where('locked_until', '=', lease.lockedUntil)
    .where('status', '=', 'running')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

/** The lease a claim took: what completeJobs needs to finish the job only while this run still holds it. */
export const leaseOf = (job: ClaimedJob, workerId: string): JobLease => ({ jobId: job.id, workerId, lockedUntil: job.locked_until ?? '' })

/**
 * Marks jobs succeeded, each only while the given lease still holds it (same worker, same claim): a run
 * whose lease was taken over cannot overwrite the new owner's result. One statement for many jobs, so a
 * handler can complete its jobs in the transaction that commits their effect.
 */
export async function completeJobs(db: Executor, clock: Clock, leases: JobLease[]): Promise<void> {
  if (leases.length === 0) return
  const now = iso(clock.now())
  if (onSqlite(db)) {
    for (const l of leases) await completeJobQ.run(db, { id: l.jobId, workerId: l.workerId, lockedUntil: l.lockedUntil, now })
    return
  }
  const byWorker = new Map<string, JobLease[]>()
  for (const l of leases) {
    const list = byWorker.get(l.workerId)
    if (list) list.push(l)
    else byWorker.set(l.workerId, [l])
  }
  for (const [workerId, list] of byWorker) {
    const claims = JSON.stringify(list.map((l) => ({ id: l.jobId, locked_until: l.lockedUntil })))
    const ids = `{${list.map((l) => `"${l.jobId.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`
    await completeJobsQ.run(db, { workerId, ids, claims, now })
  }
}
const completeJobQ = prepared((db, a: { id: string; workerId: string; lockedUntil: string; now: string }) =>
  db
    .updateTable('jobs')
    .set({ status: 'succeeded', locked_by: null, locked_until: null, updated_at: a.now })
    .where('id', '=', a.id)
    .where('locked_by', '=', a.workerId)
    .where('locked_until', '=', a.lockedUntil),
)
// PostgreSQL: the ids as one text[] parameter (an index scan of the list's length), and the claims as one
// JSON parameter, matched as (id, locked_until) pairs.
const completeJobsQ = prepared((db, a: { workerId: string; ids: string; claims: string; now: string }) =>
  db
    .updateTable('jobs')
    .set({ status: 'succeeded', locked_by: null, locked_until: null, updated_at: a.now })
    .where('id', '=', sql<string>`any(${a.ids}::text[])`)
    .where('locked_by', '=', a.workerId)
    .where(sql<boolean>`(id, locked_until) in (select id, locked_until from json_to_recordset(${a.claims}::json) as r(id text, locked_until text))`),
)

/**
 * Keeps a long job's lease alive (a crawl may outlast JOB_LEASE_SECONDS). Guarded like completeJobs: only while
 * this run still holds the claim. Moves `lease.lockedUntil` on success (so the run can still complete the job)
 * and answers false when the claim was lost (another worker took the job over): the run should stop.
 */
export async function extendLease(db: Executor, clock: Clock, lease: JobLease, seconds: number): Promise<boolean> {
  const now = clock.now()
  const until = iso(new Date(now.getTime() + seconds * 1000))
  const r = await db
    .updateTable('jobs')
    .set({ locked_until: until, updated_at: iso(now) })
    .where('id', '=', lease.jobId)
    .where('locked_by', '=', lease.workerId)
    .where('locked_until', '=', lease.lockedUntil)
    .where('status', '=', 'running')
    .executeTakeFirst()
  if (Number(r.numUpdatedRows) === 0) return false
  lease.lockedUntil = until
  return true
}

/** Guarded by the lease: see completeJobs. */
export async function completeJob(db: Executor, clock: Clock, lease: JobLease): Promise<void> {
  await completeJobs(db, clock, [lease])
}

export async function failJob(db: Executor, clock: Clock, job: ClaimedJob, workerId: string, error: string, retryAt?: Date): Promise<'retry' | 'failed'> {
  const schedule = JSON.parse(job.retry_schedule) as number[]
  const now = clock.now()
  const finalAttempt = job.attempts >= job.max_attempts
  const delay = schedule[job.attempts - 1] ?? 0
  const runAt = retryAt ?? new Date(now.getTime() + delay * 1000)
  await db
    .updateTable('jobs')
    .set({
      status: finalAttempt ? 'failed' : 'pending',
      run_at: finalAttempt ? iso(now) : iso(runAt),
      locked_by: null,
      locked_until: null,
      last_error: error.slice(0, 2000),
      updated_at: iso(now),
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', workerId)
    .where('locked_until', '=', job.locked_until ?? '')
    .execute()
  return finalAttempt ? 'failed' : 'retry'
}

/** Hand a lease back on shutdown so another worker can run the job now rather than after expiry. */
export async function releaseJob(db: Executor, clock: Clock, id: string, workerId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'pending',
      locked_by: null,
      locked_until: null,
      attempts: eb('attempts', '-', 1),
      updated_at: iso(clock.now()),
    }))
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .where('status', '=', 'running')
    .execute()
}

export async function queueStats(db: Executor, clock: Clock): Promise<{ pending: number; running: number; failed: number; oldestDueAgeSeconds: number }> {
  const nowIso = iso(clock.now())
  const rows = await db
    .selectFrom('jobs')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['pending', 'running', 'failed'])
    .groupBy('status')
    .execute()
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]))
  const oldest = await db.selectFrom('jobs').select('run_at').where('status', '=', 'pending').where('run_at', '<=', nowIso).orderBy('run_at').limit(1).executeTakeFirst()
  const age = oldest ? Math.max(0, (Date.parse(nowIso) - Date.parse(oldest.run_at)) / 1000) : 0
  return { pending: by.pending ?? 0, running: by.running ?? 0, failed: by.failed ?? 0, oldestDueAgeSeconds: age }
}

/** Delete finished jobs older than the cutoff so the table stays small. */
export async function purgeFinishedJobs(db: Executor, before: Date): Promise<number> {
  const res = await db.deleteFrom('jobs').where('status', '=', 'succeeded').where('updated_at', '<', iso(before)).executeTakeFirst()
  return Number(res.numDeletedRows)
}
