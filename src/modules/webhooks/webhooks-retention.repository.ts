import { sql } from 'kysely'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { EventsTable } from '../../kernel/db/kernel.tables.js'
import '../../kernel/db/kernel.tables.js'
import './webhooks.tables.js'
import type { WebhookDeliveriesTable } from './webhooks.tables.js'

// Data subjects and retention (webhooks.privacy.ts, webhooks.retention.ts): outbox events and the
// deliveries copied from them, found and deleted per tenant.

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
  const removed = await deleteDeliveries(
    db,
    tenant,
    deliveries.map((d) => d.id),
  )
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

/** Outbox events created before `before` (of `types`, or of every type when null): retention of what they copy. */
export async function countEventsBefore(db: Executor, tenant: Tenant, types: string[] | null, before: string): Promise<number> {
  if (types?.length === 0) return 0
  let q = scoped(db, tenant)
    .selectFrom('events')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('created_at', '<', before)
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
