import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './channels.tables.js'

// The SQL of the channels module's retention classes (channels.retention.ts).

/** Deliveries past their last change before `before`; a `queued` one may still have its send job ahead, and stays. */
export async function countOldDeliveries(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('channel_deliveries')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('updated_at', '<', before)
    .where('status', '!=', 'queued')
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

export async function deleteOldDeliveries(db: Executor, tenant: Tenant, before: string, limit: number): Promise<number> {
  const ids = await scoped(db, tenant)
    .selectFrom('channel_deliveries')
    .select('message_id')
    .where('updated_at', '<', before)
    .where('status', '!=', 'queued')
    .orderBy('updated_at')
    .limit(limit)
    .execute()
  if (ids.length === 0) return 0
  const r = await scoped(db, tenant)
    .deleteFrom('channel_deliveries')
    .where(
      'message_id',
      'in',
      ids.map((d) => d.message_id),
    )
    .executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Web chat visitors whose last visit was before `before`. */
export async function countIdleVisitors(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('channel_web_visitors')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('last_seen_at', '<', before)
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

export async function idleVisitorIds(db: Executor, tenant: Tenant, before: string, limit: number): Promise<string[]> {
  const rows = await scoped(db, tenant).selectFrom('channel_web_visitors').select('id').where('last_seen_at', '<', before).orderBy('last_seen_at').limit(limit).execute()
  return rows.map((r) => r.id)
}

/** The deliveries to these recipients (phone numbers, e-mail addresses, web chat visitor ids), for a data-subject export. */
export function deliveriesTo(db: Executor, tenant: Tenant, recipients: string[]) {
  if (recipients.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('channel_deliveries').selectAll().where('to_phone', 'in', recipients).orderBy('created_at').limit(10_000).execute()
}

export async function deleteDeliveriesTo(db: Executor, tenant: Tenant, recipients: string[]): Promise<number> {
  if (recipients.length === 0) return 0
  return Number((await scoped(db, tenant).deleteFrom('channel_deliveries').where('to_phone', 'in', recipients).executeTakeFirst()).numDeletedRows)
}
