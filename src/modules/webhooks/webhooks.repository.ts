import { sql, SqliteAdapter, type UpdateQueryBuilder } from 'kysely'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Mode, Tenant } from '../../kernel/tenant.js'
import type { EventsTable } from '../../kernel/db/kernel.tables.js'
import '../../kernel/db/kernel.tables.js'
import './webhooks.tables.js'
import type {
  DeliveryStatus,
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookPlaygroundCapturesTable,
} from './webhooks.tables.js'

// The only SQL of the module. Tenant data functions take the tenant first; another workspace's row is not found.

// ---- endpoints ----

export async function insertEndpoint(db: Executor, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute()
}

export function findEndpoint(db: Executor, tenant: Tenant, id: string): Promise<WebhookEndpointsTable | undefined> {
  return scoped(db, tenant)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
}

export function listEndpoints(db: Executor, tenant: Tenant, opts: { after: string | null; limit: number }): Promise<WebhookEndpointsTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
  if (opts.after) q = q.where('id', '<', opts.after)
  return q.execute()
}

export async function updateEndpoint(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookEndpointsTable>): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set(patch)
    .where('id', '=', id)
    .execute()
}

export async function deleteEndpoint(db: Executor, tenant: Tenant, id: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(r.numDeletedRows) > 0
}

/** Fan-out input: the enabled endpoints of a workspace and mode. */
export function enabledEndpoints(db: Executor, tenant: Tenant): Promise<Pick<WebhookEndpointsTable, 'id' | 'event_types'>[]> {
  return scoped(db, tenant)
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types'])
    .where('enabled', '=', 1)
    .execute()
}

/**
 * Endpoint health after a batch of attempts, one guarded statement per kind: `mark` starts a failing run
 * (no-op while already failing), `clear` ends one, `restart` starts a new run now (a success, then a
 * failure, in the same batch).
 */
export async function setFailing(db: Executor, tenant: Tenant, ids: string[], how: 'mark' | 'clear' | 'restart', at: string): Promise<void> {
  if (ids.length === 0) return
  let q = scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ failing_since: how === 'clear' ? null : at })
    .where('id', 'in', ids)
  if (how === 'mark') q = q.where('failing_since', 'is', null)
  if (how === 'clear') q = q.where('failing_since', 'is not', null)
  await q.execute()
}

/** Guarded: true only for the call that actually disabled it (so the event is emitted once). */
export async function disableEndpoint(db: Executor, tenant: Tenant, id: string, reason: string, at: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

// ---- deliveries ----

/** Insert the deliveries that do not exist yet; returns the ids actually inserted. */
export async function insertDeliveries(db: Executor, rows: WebhookDeliveriesTable[]): Promise<string[]> {
  if (rows.length === 0) return []
  const inserted = await db
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
    .returning('id')
    .execute()
  return inserted.map((r) => r.id)
}

export function findDelivery(db: Executor, tenant: Tenant, id: string): Promise<WebhookDeliveriesTable | undefined> {
  return scoped(db, tenant)
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
}

export function listDeliveries(
  db: Executor,
  tenant: Tenant,
  opts: { after: string | null; limit: number; endpointId?: string; status?: DeliveryStatus; eventType?: string },
): Promise<WebhookDeliveriesTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('webhook_deliveries')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
  if (opts.after) q = q.where('id', '<', opts.after)
  if (opts.endpointId) q = q.where('endpoint_id', '=', opts.endpointId)
  if (opts.status) q = q.where('status', '=', opts.status)
  if (opts.eventType) q = q.where('event_type', '=', opts.eventType)
  return q.execute()
}

export function listAttempts(db: Executor, tenant: Tenant, deliveryId: string, limit = 100): Promise<WebhookAttemptsTable[]> {
  return scoped(db, tenant)
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', '=', deliveryId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

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

// The attempt path handles many deliveries per call, each engine its own way. SQLite (in process, no round
// trips): one prepared statement per row, built and compiled once, a primary-key lookup each. PostgreSQL (a
// round trip per statement): one statement for the whole batch, its ids as one text[] parameter and its
// rows as one JSON parameter, so the SQL text stays the same whatever the batch size.
//
// PostgreSQL plans: before a table has statistics (a young table: autovacuum analyzes it after a minute
// or so), the planner takes `workspace_id = $ and mode = $` for a one-row match, so a lookup by id through
// scoped() may walk one of the (workspace_id, mode, <column>, id) indexes over the whole workspace —
// measured 1.9 ms per lookup at 20,000 deliveries, and 1.9 s for a batch UPDATE whose join it drove. So
// each row is found through scoped() by its physical address, taken from the primary key (`lookup`:
// LATERAL … LIMIT 1 per id, a TID scan whatever the statistics say), and an UPDATE joins those rows by
// primary key. With statistics or without, a batch costs one index probe per row.
const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter
/** PostgreSQL: a list as the literal of one `text[]` parameter. */
const pgTextArray = (values: readonly string[]): string => `{${values.map((v) => `"${v.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`
const anyOf = (list: string) => sql<string>`any(${list}::text[])`
/** PostgreSQL: the elements of a text[] parameter as a derived table with one column, `id`. */
const idRows = (list: string) => sql<{ id: string }>`(select unnest(${list}::text[]) as id)`
/** PostgreSQL: the rows of a JSON array parameter as a derived table (`columns`: `name type, …`, a constant). */
const jsonRows = <R>(json: string, columns: string) => sql<R>`(select * from json_to_recordset(${json}::json) as r(${sql.raw(columns)}))`
/**
 * PostgreSQL: the tenant's row of `table` whose id is `ref` (a column of the LATERAL join's left side): the
 * primary key gives the row's address, and the scoped query reads that one row (a TID scan) or nothing.
 */
const lookup = <T extends 'webhook_deliveries' | 'webhook_attempts'>(eb: unknown, tenant: Tenant, table: T, ref: string) =>
  scoped(eb as Executor, tenant)
    .selectFrom(table)
    .selectAll(table)
    .where(sql<boolean>`${sql.ref(`${table}.ctid`)} = (select p.ctid from ${sql.table(table)} as p where p.id = ${sql.ref(ref)} limit 1)`)
    .limit(1)
const deliveryLookup = (eb: unknown, tenant: Tenant, ref: string) => lookup(eb, tenant, 'webhook_deliveries', ref)

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
    .selectFrom((eb) => scoped(eb as unknown as Executor, a).selectFrom('webhook_deliveries').selectAll('webhook_deliveries').where('webhook_deliveries.id', '=', a.id).as('d'))
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .leftJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .leftJoin('webhook_attempts as a', (j) => j.onRef('a.delivery_id', '=', 'd.id').on('a.job_id', '=', a.jobId))
    .select([...LOAD_COLUMNS]),
)
// PostgreSQL: the batch's deliveries looked up one by one, then their events, endpoints and attempts by key.
const loadForAttemptsQ = prepared((db, a: Tenant & { ids: string; jobs: string }) =>
  db
    .selectFrom(idRows(a.ids).as('k'))
    .innerJoinLateral((eb) => deliveryLookup(eb, a, 'k.id').as('d'), (j) => j.onTrue())
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
export async function startAttempts(
  db: Executor,
  tenant: Tenant,
  ids: string[],
  opts: { scheduledAttempt: number | null; again: boolean; at: string },
): Promise<Set<string>> {
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
          .innerJoinLateral((eb) => deliveryLookup(eb, a, 'k.id').as('x'), (j) => j.onTrue())
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
const ATTEMPT_COLUMNS = ['id', 'delivery_id', 'workspace_id', 'mode', 'attempt', 'trigger', 'url', 'status', 'response_status', 'response_body', 'error', 'duration_ms', 'created_at', 'job_id'] as const
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

type AttemptOutcome = Pick<WebhookAttemptsTable, 'status' | 'response_status' | 'response_body' | 'error' | 'duration_ms'>

/**
 * Completes an attempt in flight (`sending`). Guarded by that status: false when another run already
 * concluded it (a worker whose lease was taken over must then record nothing).
 */
export async function finishAttempt(db: Executor, tenant: Tenant, attemptId: string, outcome: AttemptOutcome): Promise<boolean> {
  const args = { workspaceId: tenant.workspaceId, mode: tenant.mode, id: attemptId, ...outcome }
  return (await finishAttemptQ.run(db, args)) === 1
}
const finishAttemptQ = prepared((db, a: Tenant & AttemptOutcome & { id: string }) =>
  scoped(db, a)
    .updateTable('webhook_attempts')
    .set({ status: a.status, response_status: a.response_status, response_body: a.response_body, error: a.error, duration_ms: a.duration_ms })
    .where('id', '=', a.id)
    .where('status', '=', 'sending'),
)

/**
 * Records the outcome of a finished attempt on its delivery: the patch, and attempts_count + 1 (an
 * attempt counts once its outcome is known). Callers run it in the transaction whose finishAttempt
 * succeeded, so each attempt is counted once.
 */
export async function recordOutcome(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookDeliveriesTable>): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_deliveries')
    .set((eb) => ({ ...patch, attempts_count: eb('attempts_count', '+', 1) }))
    .where('id', '=', id)
    .execute()
}

/** The outcome of one attempt on its delivery: `last_error` and `next_retry_at` are written only when their flag is set. */
export interface DeliveryOutcome {
  id: string
  status: DeliveryStatus
  last_attempt_at: string
  last_response_status: number | null
  last_response_body: string | null
  last_duration_ms: number | null
  updated_at: string
  set_last_error: boolean
  last_error: string | null
  set_next_retry_at: boolean
  next_retry_at: string | null
}

/** One answer to record: the attempt's outcome and its delivery's. */
export interface Answered {
  attempt: AttemptOutcome & { id: string }
  delivery: DeliveryOutcome
}

/**
 * For each answer, in the caller's transaction: finishAttempt, and where that succeeded, recordOutcome
 * with the delivery's outcome. Each delivery at most once per call. Returns the ids of the attempts
 * completed. PostgreSQL does it all in one statement.
 */
export async function recordAnswers(db: Executor, tenant: Tenant, answers: Answered[]): Promise<Set<string>> {
  const done = new Set<string>()
  if (answers.length === 0) return done
  const t = { workspaceId: tenant.workspaceId, mode: tenant.mode }
  if (onSqlite(db)) {
    for (const { attempt, delivery } of answers) {
      if ((await finishAttemptQ.run(db, { ...t, ...attempt })) !== 1) continue
      done.add(attempt.id)
      await recordOutcomeQ.run(db, { ...t, ...delivery })
    }
    return done
  }
  const rows = answers.map(({ attempt: at, delivery: d }) => ({
    attempt_id: at.id,
    attempt_status: at.status,
    response_status: at.response_status,
    response_body: at.response_body,
    error: at.error,
    duration_ms: at.duration_ms,
    ...d,
  }))
  for (const r of await recordAnswersQ.all(db, { ...t, rows: JSON.stringify(rows) })) done.add(r.id)
  return done
}
const recordOutcomeQ = prepared((db, a: Tenant & DeliveryOutcome) => {
  let q = scoped(db, a)
    .updateTable('webhook_deliveries')
    .set((eb) => ({
      status: a.status,
      last_attempt_at: a.last_attempt_at,
      last_response_status: a.last_response_status,
      last_response_body: a.last_response_body,
      last_duration_ms: a.last_duration_ms,
      updated_at: a.updated_at,
      attempts_count: eb('attempts_count', '+', 1),
    }))
    .where('id', '=', a.id)
  if (a.set_last_error) q = q.set({ last_error: a.last_error })
  if (a.set_next_retry_at) q = q.set({ next_retry_at: a.next_retry_at })
  return q
})
type AnswerRow = DeliveryOutcome & { attempt_id: string; attempt_status: AttemptOutcome['status'] } & Omit<AttemptOutcome, 'status'>
const ANSWER_COLUMNS =
  'attempt_id text, attempt_status text, response_status integer, response_body text, error text, duration_ms integer, ' +
  'id text, status text, last_attempt_at text, last_response_status integer, last_response_body text, last_duration_ms integer, updated_at text, ' +
  'set_last_error boolean, last_error text, set_next_retry_at boolean, next_retry_at text'
// PostgreSQL, one statement: `f` completes the attempts, `d` records the outcome on the delivery of each
// attempt `f` completed (both find their rows through scoped(), see above), and it answers f's ids.
const recordAnswersQ = prepared((db, a: Tenant & { rows: string }) => {
  const t = 'webhook_deliveries'
  return db
    .with('f', (qc) =>
      qc
        .updateTable('webhook_attempts')
        .from(
          qc
            .selectFrom(jsonRows<AnswerRow>(a.rows, ANSWER_COLUMNS).as('v'))
            .innerJoinLateral((eb) => lookup(eb, a, 'webhook_attempts', 'v.attempt_id').as('x'), (j) => j.onTrue())
            .selectAll('v')
            .select('x.id as target')
            .as('s'),
        )
        .set({
          status: sql`s.attempt_status`,
          response_status: sql`s.response_status`,
          response_body: sql`s.response_body`,
          error: sql`s.error`,
          duration_ms: sql`s.duration_ms`,
        })
        .whereRef('webhook_attempts.id', '=', 's.target')
        .where('webhook_attempts.status', '=', 'sending')
        .returning('webhook_attempts.id'),
    )
    .with('d', (qc) =>
      qc
        .updateTable(t)
        .from(
          qc
            .selectFrom(jsonRows<AnswerRow>(a.rows, ANSWER_COLUMNS).as('v'))
            .innerJoin(sql<{ id: string }>`f`.as('f'), 'f.id', 'v.attempt_id')
            .innerJoinLateral((eb) => deliveryLookup(eb, a, 'v.id').as('x'), (j) => j.onTrue())
            .selectAll('v')
            .select('x.id as target')
            .as('s'),
        )
        .set((eb) => ({
          status: sql`s.status`,
          last_attempt_at: sql`s.last_attempt_at`,
          last_response_status: sql`s.last_response_status`,
          last_response_body: sql`s.last_response_body`,
          last_duration_ms: sql`s.last_duration_ms`,
          updated_at: sql`s.updated_at`,
          last_error: sql`case when s.set_last_error then s.last_error else ${sql.ref(`${t}.last_error`)} end`,
          next_retry_at: sql`case when s.set_next_retry_at then s.next_retry_at else ${sql.ref(`${t}.next_retry_at`)} end`,
          attempts_count: eb(`${t}.attempts_count`, '+', 1),
        }))
        .whereRef(`${t}.id`, '=', 's.target')
        .returning(`${t}.id`),
    )
    .selectFrom('f')
    .select('f.id')
})

export async function updateDelivery(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookDeliveriesTable>): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_deliveries')
    .set(patch)
    .where('id', '=', id)
    .execute()
}

export async function deliveryStats(db: Executor, now: string) {
  const counts = await db
    .selectFrom('webhook_deliveries')
    .select(['status', sql<number>`count(*)`.as('n')])
    .where('status', 'in', ['pending', 'failed'])
    .groupBy('status')
    .execute()
  const oldest = await db
    .selectFrom('webhook_deliveries')
    .select(sql<string | null>`min(coalesce(next_retry_at, created_at))`.as('due'))
    .where('status', '=', 'pending')
    .where((eb) => eb(eb.fn.coalesce('next_retry_at', 'created_at'), '<=', now))
    .executeTakeFirst()
  const by = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]))
  return { pending: by.pending ?? 0, failed: by.failed ?? 0, oldestDue: oldest?.due ?? null }
}

/** Operator view for GET /metrics: deliveries and attempts by outcome, all workspaces. */
export async function outcomeCounts(db: Executor) {
  const deliveries = await db.selectFrom('webhook_deliveries').select(['status', 'mode', sql<number>`count(*)`.as('n')]).groupBy(['status', 'mode']).execute()
  const attempts = await db.selectFrom('webhook_attempts').select(['status', 'mode', sql<number>`count(*)`.as('n')]).groupBy(['status', 'mode']).execute()
  return { deliveries, attempts }
}

// ---- playground (keyed by token and mode, not by workspace) ----

export async function insertCapture(db: Executor, row: WebhookPlaygroundCapturesTable): Promise<void> {
  await db.insertInto('webhook_playground_captures').values(row).execute()
}

export function listCaptures(db: Executor, token: string, mode: Mode, opts: { after: string | null; limit: number }): Promise<WebhookPlaygroundCapturesTable[]> {
  let q = db
    .selectFrom('webhook_playground_captures')
    .selectAll()
    .where('token', '=', token)
    .where('mode', '=', mode)
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
  if (opts.after) q = q.where('id', '<', opts.after)
  return q.execute()
}

/** The captures of an inbox after `after` (an id), oldest first: what the Playground stream polls for. */
export function capturesAfter(db: Executor, token: string, mode: Mode, after: string | null, limit: number): Promise<WebhookPlaygroundCapturesTable[]> {
  let q = db.selectFrom('webhook_playground_captures').selectAll().where('token', '=', token).where('mode', '=', mode).orderBy('id', 'asc').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Keep only the newest `keep` captures of an inbox. */
export async function pruneInbox(db: Executor, token: string, mode: Mode, keep: number): Promise<void> {
  const boundary = await db
    .selectFrom('webhook_playground_captures')
    .select('id')
    .where('token', '=', token)
    .where('mode', '=', mode)
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst()
  if (!boundary) return
  await db.deleteFrom('webhook_playground_captures').where('token', '=', token).where('mode', '=', mode).where('id', '<=', boundary.id).execute()
}

export async function purgeCaptures(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('webhook_playground_captures').where('received_at', '<', before).executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Signature diagnostics: a delivery by id (from its Svc-Delivery-Id header) with its endpoint and event. */
export function deliveryForDiagnostics(db: Executor, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .innerJoin('events as ev', 'ev.id', 'd.event_id')
    .select(['d.id', 'd.endpoint_id', 'e.url', 'e.secrets', 'ev.id as event_id', 'ev.workspace_id', 'ev.mode', 'ev.type', 'ev.api_version', 'ev.data', 'ev.created_at'])
    .where('d.id', '=', deliveryId)
    .executeTakeFirst()
}

/** Maintenance across every tenant (`svc secrets reseal`): endpoint ids with their sealed secrets. */
export function allEndpointSecrets(db: Executor, after: string | null, limit: number): Promise<{ id: string; secrets: string }[]> {
  let q = db.selectFrom('webhook_endpoints').select(['id', 'secrets']).orderBy('id').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Rewrites one endpoint's secrets if they are still what was read (a concurrent rotation wins). */
export async function resealEndpointSecrets(db: Executor, id: string, from: string, to: string): Promise<boolean> {
  const r = await db.updateTable('webhook_endpoints').set({ secrets: to }).where('id', '=', id).where('secrets', '=', from).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

// ---- data subjects and retention (webhooks.privacy.ts, webhooks.retention.ts) ----

/** `%needle%` for LIKE, its wildcards taken literally (backslash-escaped). */
const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, '\\$&')}%`

/**
 * The tenant's outbox events whose payload (its JSON text) contains one of `anyCase` (case-insensitively)
 * or of `exact`: candidates, which the caller checks. A scan of the tenant's events.
 */
export function eventsContaining(db: Executor, tenant: Tenant, anyCase: string[], exact: string[]): Promise<EventsTable[]> {
  if (anyCase.length + exact.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('events')
    .selectAll()
    .where((eb) =>
      eb.or([
        ...anyCase.map((n) => sql<boolean>`lower(${eb.ref('data')}) like ${likePattern(n.toLowerCase())} escape '\\'`),
        ...exact.map((n) => sql<boolean>`${eb.ref('data')} like ${likePattern(n)} escape '\\'`),
      ]),
    )
    .orderBy('id')
    .execute()
}

export function deliveriesOfEvents(db: Executor, tenant: Tenant, eventIds: string[]): Promise<WebhookDeliveriesTable[]> {
  if (eventIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('webhook_deliveries').selectAll().where('event_id', 'in', eventIds).orderBy('id').execute()
}

/** Deliveries with their attempts; rows deleted per table. */
export async function deleteDeliveries(db: Executor, tenant: Tenant, ids: string[]): Promise<{ deliveries: number; attempts: number }> {
  if (ids.length === 0) return { deliveries: 0, attempts: 0 }
  const attempts = await scoped(db, tenant).deleteFrom('webhook_attempts').where('delivery_id', 'in', ids).executeTakeFirst()
  const deliveries = await scoped(db, tenant).deleteFrom('webhook_deliveries').where('id', 'in', ids).executeTakeFirst()
  return { deliveries: Number(deliveries.numDeletedRows), attempts: Number(attempts.numDeletedRows) }
}

/** Events with their deliveries and attempts; rows deleted in all three. */
export async function deleteEvents(db: Executor, tenant: Tenant, eventIds: string[]): Promise<number> {
  if (eventIds.length === 0) return 0
  const deliveries = await scoped(db, tenant).selectFrom('webhook_deliveries').select('id').where('event_id', 'in', eventIds).execute()
  const removed = await deleteDeliveries(db, tenant, deliveries.map((d) => d.id))
  const events = await scoped(db, tenant).deleteFrom('events').where('id', 'in', eventIds).executeTakeFirst()
  return Number(events.numDeletedRows) + removed.deliveries + removed.attempts
}

export async function countDeliveriesBefore(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Up to `limit` deliveries created before `before`, oldest first. */
export async function deliveryIdsBefore(db: Executor, tenant: Tenant, before: string, limit: number): Promise<string[]> {
  const rows = await scoped(db, tenant).selectFrom('webhook_deliveries').select('id').where('created_at', '<', before).orderBy('created_at').orderBy('id').limit(limit).execute()
  return rows.map((r) => r.id)
}

/** Every endpoint URL of the tenant, enabled or not: the Playground inboxes it delivers to (webhooks.privacy.ts). */
export async function endpointUrls(db: Executor, tenant: Tenant): Promise<string[]> {
  return (await scoped(db, tenant).selectFrom('webhook_endpoints').select('url').execute()).map((r) => r.url)
}

/** Playground captures in `mode` of one of `tokens`, or recording one of `deliveryIds` (any token). */
export function capturesOf(db: Executor, mode: Mode, tokens: string[], deliveryIds: string[]): Promise<WebhookPlaygroundCapturesTable[]> {
  if (tokens.length + deliveryIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('webhook_playground_captures')
    .selectAll()
    .where('mode', '=', mode)
    .where((eb) => eb.or([...(tokens.length ? [eb('token', 'in', tokens)] : []), ...(deliveryIds.length ? [eb('delivery_id', 'in', deliveryIds)] : [])]))
    .orderBy('id')
    .execute()
}

export async function deleteCaptures(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0
  const r = await db.deleteFrom('webhook_playground_captures').where('id', 'in', ids).executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Outbox events created before `before` (of `types`, or of every type when null): retention of what they copy. */
export async function countEventsBefore(db: Executor, tenant: Tenant, types: string[] | null, before: string): Promise<number> {
  if (types?.length === 0) return 0
  let q = scoped(db, tenant).selectFrom('events').select((eb) => eb.fn.countAll().as('n')).where('created_at', '<', before)
  if (types) q = q.where('type', 'in', types)
  return Number((await q.executeTakeFirst())?.n ?? 0)
}

/** Up to `limit` of those events, oldest first. */
export async function eventIdsBefore(db: Executor, tenant: Tenant, types: string[] | null, before: string, limit: number): Promise<string[]> {
  if (types?.length === 0) return []
  let q = scoped(db, tenant).selectFrom('events').select('id').where('created_at', '<', before)
  if (types) q = q.where('type', 'in', types)
  return (await q.orderBy('created_at').orderBy('id').limit(limit).execute()).map((r) => r.id)
}
