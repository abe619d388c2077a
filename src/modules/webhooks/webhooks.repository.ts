import { sql } from 'kysely'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Mode, Tenant } from '../../kernel/tenant.js'
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

/** First failure of a run: remember when it began (no-op while already failing). */
export async function markFailing(db: Executor, tenant: Tenant, id: string, at: string): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ failing_since: at })
    .where('id', '=', id)
    .where('failing_since', 'is', null)
    .execute()
}

export async function clearFailing(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ failing_since: null })
    .where('id', '=', id)
    .where('failing_since', 'is not', null)
    .execute()
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

/** Everything one attempt needs, in one query: the delivery, its endpoint (if it still exists) and its event. */
export function loadForAttempt(db: Executor, tenant: Tenant, deliveryId: string) {
  const d = 'webhook_deliveries'
  return scoped(db, tenant)
    .selectFrom(d)
    .innerJoin('events as ev', 'ev.id', `${d}.event_id`)
    .leftJoin('webhook_endpoints as e', 'e.id', `${d}.endpoint_id`)
    .select([
      `${d}.id`,
      `${d}.event_id`,
      `${d}.event_type`,
      `${d}.endpoint_id`,
      `${d}.status`,
      `${d}.scheduled_attempts`,
      'e.url',
      'e.enabled',
      'e.secrets',
      'e.failing_since',
      'ev.workspace_id',
      'ev.mode',
      'ev.type',
      'ev.api_version',
      'ev.data',
      'ev.created_at',
    ])
    .where(`${d}.id`, '=', deliveryId)
    .executeTakeFirst()
}

export async function insertAttempt(db: Executor, row: WebhookAttemptsTable): Promise<void> {
  await db.insertInto('webhook_attempts').values(row).execute()
}

/** The attempts one job made for a delivery: a re-run of the job finds what its earlier run recorded. */
export function attemptsOfJob(db: Executor, tenant: Tenant, deliveryId: string, jobId: string): Promise<Pick<WebhookAttemptsTable, 'id' | 'status' | 'created_at'>[]> {
  return scoped(db, tenant)
    .selectFrom('webhook_attempts')
    .select(['id', 'status', 'created_at'])
    .where('delivery_id', '=', deliveryId)
    .where('job_id', '=', jobId)
    .execute()
}

/**
 * Claims the start of an attempt on its delivery, before anything is sent, and locks the delivery row for
 * the rest of the transaction (so attempt numbers are handed out one at a time). A scheduled attempt is
 * guarded by its position in the schedule: a first start moves `scheduled_attempts` from position-1 to
 * position (a duplicate run finds it moved and sends nothing); a restart after an interrupted attempt
 * (`again`) requires it to be at position already. Both require the delivery to be pending. A replay is
 * not guarded. Returns false when the guard failed.
 */
export async function startAttempt(
  db: Executor,
  tenant: Tenant,
  id: string,
  opts: { scheduledAttempt: number | null; again: boolean; at: string },
): Promise<boolean> {
  let q = scoped(db, tenant)
    .updateTable('webhook_deliveries')
    .set({ updated_at: opts.at })
    .where('id', '=', id)
  if (opts.scheduledAttempt !== null) {
    q = q.where('status', '=', 'pending')
    q = opts.again
      ? q.where('scheduled_attempts', '=', opts.scheduledAttempt)
      : q.where('scheduled_attempts', '=', opts.scheduledAttempt - 1).set({ scheduled_attempts: opts.scheduledAttempt })
  }
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Attempts recorded for a delivery, in flight included (the next one is number count + 1). */
export async function countAttempts(db: Executor, tenant: Tenant, deliveryId: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('webhook_attempts')
    .select(sql<number>`count(*)`.as('n'))
    .where('delivery_id', '=', deliveryId)
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/**
 * Completes an attempt in flight (`sending`). Guarded by that status: false when another run already
 * concluded it (a worker whose lease was taken over must then record nothing).
 */
export async function finishAttempt(
  db: Executor,
  tenant: Tenant,
  attemptId: string,
  outcome: Pick<WebhookAttemptsTable, 'status' | 'response_status' | 'response_body' | 'error' | 'duration_ms'>,
): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('webhook_attempts')
    .set(outcome)
    .where('id', '=', attemptId)
    .where('status', '=', 'sending')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

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
