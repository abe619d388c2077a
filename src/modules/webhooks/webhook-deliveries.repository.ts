import { sql } from 'kysely'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import '../../kernel/db/kernel.tables.js'
import './webhooks.tables.js'
import type { DeliveryStatus, WebhookAttemptsTable, WebhookDeliveriesTable } from './webhooks.tables.js'

// Deliveries and their attempts as the API lists them, and the operator's counts. The attempt path itself
// (claiming, recording outcomes) is in webhook-attempts.repository.ts and webhook-outcomes.repository.ts.

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
  return scoped(db, tenant).selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()
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
  return scoped(db, tenant).selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('id', 'desc').limit(limit).execute()
}

export async function updateDelivery(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookDeliveriesTable>): Promise<void> {
  await scoped(db, tenant).updateTable('webhook_deliveries').set(patch).where('id', '=', id).execute()
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
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .select(['status', 'mode', sql<number>`count(*)`.as('n')])
    .groupBy(['status', 'mode'])
    .execute()
  const attempts = await db
    .selectFrom('webhook_attempts')
    .select(['status', 'mode', sql<number>`count(*)`.as('n')])
    .groupBy(['status', 'mode'])
    .execute()
  return { deliveries, attempts }
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
