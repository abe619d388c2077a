import { sql } from 'kysely'
import { iso, type Clock } from '../clock.js'
import { toJson, type Engine, type Executor } from '../db/database.js'
import { newId } from '../ids.js'
import '../db/kernel.tables.js'

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
}

export interface JobContext {
  jobId: string
  attempt: number
  /** Ask the runner to retry at a specific time instead of the schedule (e.g. Retry-After). */
  retryAt?: Date
}

export function defineJob<P>(def: JobDefinition<P>): JobDefinition<P> {
  return def
}

export const scheduleOf = (def: JobDefinition): number[] =>
  typeof def.retrySchedule === 'function' ? def.retrySchedule() : def.retrySchedule

/** Enqueue inside the caller's transaction: the job exists iff the state change committed. */
export async function enqueue<P>(
  tx: Executor,
  clock: Clock,
  def: JobDefinition<P>,
  payload: P,
  opts: { runAt?: Date; id?: string } = {},
): Promise<string> {
  const now = clock.now()
  const schedule = scheduleOf(def)
  const id = opts.id ?? newId('job')
  await tx
    .insertInto('jobs')
    .values({
      id,
      name: def.name,
      payload: toJson(payload),
      status: 'pending',
      run_at: iso(opts.runAt ?? now),
      attempts: 0,
      max_attempts: schedule.length + 1,
      retry_schedule: toJson(schedule),
      locked_by: null,
      locked_until: null,
      last_error: null,
      created_at: iso(now),
      updated_at: iso(now),
    })
    .execute()
  return id
}

export interface ClaimedJob {
  id: string
  name: string
  payload: string
  attempts: number
  max_attempts: number
  retry_schedule: string
  locked_until: string | null
}

/**
 * Claims up to `limit` due jobs: pending ones whose run_at has come, or (with `expired`) running ones
 * whose lease expired because their worker died. On PostgreSQL, SKIP LOCKED lets several workers claim
 * disjoint sets; SQLite has a single writer, so the UPDATE itself is the lock.
 */
export async function claimJobs(
  db: Executor,
  engine: Engine,
  clock: Clock,
  workerId: string,
  limit: number,
  leaseSeconds: number,
  expired = false,
): Promise<ClaimedJob[]> {
  const now = clock.now()
  const nowIso = iso(now)
  const lease = iso(new Date(now.getTime() + leaseSeconds * 1000))
  // Two simple predicates, each served by its partial index, instead of one OR the planners scan for.
  // The status is a literal, not a bound parameter: SQLite only matches partial indexes on literals.
  let due = expired
    ? db.selectFrom('jobs').select('id').where(sql<boolean>`status = 'running'`).where('locked_until', '<', nowIso).orderBy('locked_until')
    : db.selectFrom('jobs').select('id').where(sql<boolean>`status = 'pending'`).where('run_at', '<=', nowIso).orderBy('run_at')
  due = due.limit(limit)
  if (engine === 'postgres') due = due.forUpdate().skipLocked()
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: workerId,
      locked_until: lease,
      attempts: eb('attempts', '+', 1),
      updated_at: nowIso,
    }))
    .where('id', 'in', due)
    // Re-check under the lock: the row may have changed between the sub-select and the update.
    .where(expired ? (eb) => eb.and([eb('status', '=', 'running'), eb('locked_until', '<', nowIso)]) : (eb) => eb('status', '=', 'pending'))
    .returning(['id', 'name', 'payload', 'attempts', 'max_attempts', 'retry_schedule', 'locked_until'])
    .execute()
}

/** Guarded by locked_by: a worker whose lease was taken over cannot overwrite the new owner's result. */
export async function completeJob(db: Executor, clock: Clock, id: string, workerId: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'succeeded', locked_by: null, locked_until: null, updated_at: iso(clock.now()) })
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .execute()
}

export async function failJob(
  db: Executor,
  clock: Clock,
  job: ClaimedJob,
  workerId: string,
  error: string,
  retryAt?: Date,
): Promise<'retry' | 'failed'> {
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
  const oldest = await db
    .selectFrom('jobs')
    .select('run_at')
    .where('status', '=', 'pending')
    .where('run_at', '<=', nowIso)
    .orderBy('run_at')
    .limit(1)
    .executeTakeFirst()
  const age = oldest ? Math.max(0, (Date.parse(nowIso) - Date.parse(oldest.run_at)) / 1000) : 0
  return { pending: by.pending ?? 0, running: by.running ?? 0, failed: by.failed ?? 0, oldestDueAgeSeconds: age }
}

/** Delete finished jobs older than the cutoff so the table stays small. */
export async function purgeFinishedJobs(db: Executor, before: Date): Promise<number> {
  const res = await db
    .deleteFrom('jobs')
    .where('status', '=', 'succeeded')
    .where('updated_at', '<', iso(before))
    .executeTakeFirst()
  return Number(res.numDeletedRows)
}
