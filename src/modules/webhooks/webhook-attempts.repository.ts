import { sql, type UpdateQueryBuilder } from 'kysely'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Mode, Tenant } from '../../kernel/tenant.js'
import '../../kernel/db/kernel.tables.js'
import { anyOf, deliveryLookup, idRows, jsonRows, onSqlite, pgTextArray } from './webhook-batch.sql.js'
import './webhooks.tables.js'
import type { DeliveryStatus, WebhookAttemptsTable } from './webhooks.tables.js'

// The attempt path, before anything is sent: what a batch of jobs needs, the claim on each delivery, the
// attempt rows recorded as `sending`. Each engine its own way (webhook-batch.sql.ts).

/** A delivery as an attempt needs it: the delivery, its endpoint (null fields when deleted) and its event. */
export interface AttemptSource {
  id: string
  event_id: string
  event_type: string
  endpoint_id: string
  status: DeliveryStatus
  scheduled_attempts: number
  url: string | null
  enabled: number | null
  secrets: string | null
  legacy_signature: number | null
  failing_since: string | null
  workspace_id: string
  mode: Mode
  type: string
  api_version: string
  data: string
  created_at: string
  /** Attempts recorded by the jobs asked about (a re-run of a job finds what its earlier run recorded). */
  jobAttempts: JobAttempt[]
}
export type JobAttempt = Pick<WebhookAttemptsTable, 'id' | 'job_id' | 'status' | 'created_at'>

/**
 * Everything the attempts of many jobs need: each job's delivery with its endpoint, its event, and the
 * attempts that job recorded for it before (usually none, so one row per delivery).
 */
export async function loadForAttempts(db: Executor, tenant: Tenant, jobs: { deliveryId: string; jobId: string }[]): Promise<Map<string, AttemptSource>> {
  const out = new Map<string, AttemptSource>()
  if (jobs.length === 0) return out
  const t = { workspaceId: tenant.workspaceId, mode: tenant.mode }
  let rows: LoadedRow[]
  if (onSqlite(db)) {
    rows = []
    for (const j of jobs) rows.push(...(await loadForAttemptQ.all(db, { ...t, id: j.deliveryId, jobId: j.jobId })))
  } else {
    const ids = pgTextArray([...new Set(jobs.map((j) => j.deliveryId))])
    rows = await loadForAttemptsQ.all(db, { ...t, ids, jobs: pgTextArray(jobs.map((j) => j.jobId)) })
  }
  for (const { attempt_id, attempt_job_id, attempt_status, attempt_created_at, ...row } of rows) {
    let source = out.get(row.id)
    if (!source) out.set(row.id, (source = { ...row, scheduled_attempts: Number(row.scheduled_attempts), jobAttempts: [] }))
    if (attempt_id !== null && attempt_status !== null && attempt_created_at !== null) {
      source.jobAttempts.push({ id: attempt_id, job_id: attempt_job_id, status: attempt_status, created_at: attempt_created_at })
    }
  }
  return out
}

/** One delivery's attempt source, with what the given job recorded for it (see loadForAttempts). */
export async function loadForAttempt(db: Executor, tenant: Tenant, deliveryId: string, jobId = ''): Promise<AttemptSource | undefined> {
  return (await loadForAttempts(db, tenant, [{ deliveryId, jobId }])).get(deliveryId)
}

const LOAD_COLUMNS = [
  'd.id',
  'd.event_id',
  'd.event_type',
  'd.endpoint_id',
  'd.status',
  'd.scheduled_attempts',
  'e.url',
  'e.enabled',
  'e.secrets',
  'e.legacy_signature',
  'e.failing_since',
  'ev.workspace_id',
  'ev.mode',
  'ev.type',
  'ev.api_version',
  'ev.data',
  'ev.created_at',
  'a.id as attempt_id',
  'a.job_id as attempt_job_id',
  'a.status as attempt_status',
  'a.created_at as attempt_created_at',
] as const
// SQLite: one delivery (by primary key within the tenant), with the attempts of one job.
const loadForAttemptQ = prepared((db, a: Tenant & { id: string; jobId: string }) =>
  db
    .selectFrom((eb) =>
      scoped(eb as unknown as Executor, a)
        .selectFrom('webhook_deliveries')
        .selectAll('webhook_deliveries')
        .where('webhook_deliveries.id', '=', a.id)
        .as('d'),
    )
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .leftJoin('webhook_attempts as a', (j) => j.onRef('a.delivery_id', '=', 'd.id').on('a.job_id', '=', a.jobId))
    .select([...LOAD_COLUMNS]),
)
// PostgreSQL: the batch's deliveries looked up one by one, then their events, endpoints and attempts by key.
const loadForAttemptsQ = prepared((db, a: Tenant & { ids: string; jobs: string }) =>
  db
    .selectFrom(idRows(a.ids).as('k'))
    .innerJoinLateral(
      (eb) => deliveryLookup(eb, a, 'k.id').as('d'),
      (j) => j.onTrue(),
    )
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .leftJoin('webhook_attempts as a', (j) => j.onRef('a.delivery_id', '=', 'd.id').on('a.job_id', '=', anyOf(a.jobs)))
    .select([...LOAD_COLUMNS]),
)
type LoadedRow = Awaited<ReturnType<typeof loadForAttemptQ.all>>[number]

/**
 * Claims the start of an attempt on each of the given deliveries, before anything is sent, and locks
 * those delivery rows for the rest of the transaction (so attempt numbers are handed out one at a time).
 * A scheduled attempt is guarded by its position in the schedule: a first start moves
 * `scheduled_attempts` from position-1 to position (a duplicate run finds it moved and sends nothing); a
 * restart after an interrupted attempt (`again`) requires it to be at position already. Both require the
 * delivery to be pending. A replay is not guarded. Returns the ids whose guard held.
 */
export async function startAttempts(db: Executor, tenant: Tenant, ids: string[], opts: { scheduledAttempt: number | null; again: boolean; at: string }): Promise<Set<string>> {
  const started = new Set<string>()
  if (ids.length === 0) return started
  const position = opts.scheduledAttempt ?? 0
  const a = { workspaceId: tenant.workspaceId, mode: tenant.mode, at: opts.at, scheduled: opts.scheduledAttempt !== null, again: opts.again, position, previous: position - 1 }
  if (onSqlite(db)) {
    for (const id of ids) if ((await startAttemptQ.run(db, { ...a, id })) === 1) started.add(id)
  } else {
    for (const r of await startAttemptsQ.all(db, { ...a, ids: pgTextArray(ids) })) started.add(r.id)
  }
  return started
}
type StartArgs = Tenant & { at: string; scheduled: boolean; again: boolean; position: number; previous: number }
/** The guard of a scheduled start (see startAttempts) on an UPDATE of webhook_deliveries. */
function startGuard<Q>(q: Q, a: StartArgs): Q {
  if (!a.scheduled) return q
  const u = (q as unknown as UpdateQueryBuilder<any, any, any, any>).where('webhook_deliveries.status', '=', 'pending')
  const guarded = a.again
    ? u.where('webhook_deliveries.scheduled_attempts', '=', a.position)
    : u.where('webhook_deliveries.scheduled_attempts', '=', a.previous).set({ scheduled_attempts: a.position })
  return guarded as unknown as Q
}
const startAttemptQ = prepared((db, a: StartArgs & { id: string }) =>
  startGuard(scoped(db, a).updateTable('webhook_deliveries').set({ updated_at: a.at }).where('webhook_deliveries.id', '=', a.id), a),
)
// PostgreSQL: the rows found through scoped(), one lookup each, updated by primary key (see above).
const startAttemptsQ = prepared((db, a: StartArgs & { ids: string }) =>
  startGuard(
    db
      .updateTable('webhook_deliveries')
      .from(
        db
          .selectFrom(idRows(a.ids).as('k'))
          .innerJoinLateral(
            (eb) => deliveryLookup(eb, a, 'k.id').as('x'),
            (j) => j.onTrue(),
          )
          .select('x.id as target')
          .as('s'),
      )
      .set({ updated_at: a.at })
      .whereRef('webhook_deliveries.id', '=', 's.target'),
    a,
  ).returning('webhook_deliveries.id as id'),
)

/** An attempt as recorded before it is sent; its number is counted in the same statement (attempts so far + 1). */
export type NewAttempt = Omit<WebhookAttemptsTable, 'attempt'>

/**
 * Records attempts as `sending`, numbered from the attempts their delivery already has (in flight
 * included). Run after startAttempts, in its transaction (the delivery row is locked, and the count is a
 * new statement, so it sees what a transaction it waited for committed); each delivery at most once per call.
 */
export async function insertAttempts(db: Executor, tenant: Tenant, rows: NewAttempt[]): Promise<void> {
  if (rows.length === 0) return
  if (onSqlite(db)) {
    for (const row of rows) await insertAttemptQ.run(db, row)
    return
  }
  await insertAttemptsQ.run(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, rows: JSON.stringify(rows) })
}
const attemptNumber = (db: Executor, tenant: Tenant, deliveryId: unknown) =>
  scoped(db, tenant)
    .selectFrom('webhook_attempts')
    .select(sql<number>`count(*) + 1`.as('n'))
    .whereRef('webhook_attempts.delivery_id', '=', deliveryId as never)
const insertAttemptQ = prepared((db, row: NewAttempt) =>
  db.insertInto('webhook_attempts').values({ ...row, attempt: attemptNumber(db, { workspaceId: row.workspace_id, mode: row.mode }, sql.val(row.delivery_id)) }),
)
const ATTEMPT_COLUMNS = [
  'id',
  'delivery_id',
  'workspace_id',
  'mode',
  'attempt',
  'trigger',
  'url',
  'status',
  'response_status',
  'response_body',
  'error',
  'duration_ms',
  'created_at',
  'job_id',
] as const
const insertAttemptsQ = prepared((db, a: Tenant & { rows: string }) =>
  db
    .insertInto('webhook_attempts')
    .columns([...ATTEMPT_COLUMNS])
    .expression(
      db
        .selectFrom(
          jsonRows<NewAttempt>(
            a.rows,
            'id text, delivery_id text, workspace_id text, mode text, trigger text, url text, status text, response_status integer, response_body text, error text, duration_ms integer, created_at text, job_id text',
          ).as('v'),
        )
        .select(ATTEMPT_COLUMNS.map((c) => (c === 'attempt' ? attemptNumber(db, a, sql.ref('v.delivery_id')).as('attempt') : sql.ref(`v.${c}`).as(c)))),
    ),
)
