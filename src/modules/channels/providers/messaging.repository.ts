import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ChannelMediaPendingTable, ChannelReceiptsTable } from '../channels.tables.js'
import '../channels.tables.js'

// The SQL of Twilio Messaging's own parts (stored media: pending fetches, erasure, export); the rest of the
// module's is channels.repository.ts.

export type TwilioReceipt = Pick<ChannelReceiptsTable, 'channel_id' | 'provider_sid' | 'message_id' | 'received_at' | 'media_folder'>

/** The messages a customer sent through Twilio channels: their media live under the receipt's folder. */
export function twilioReceiptsOf(db: Executor, tenant: Tenant, phone: string): Promise<TwilioReceipt[]> {
  return scoped(db, tenant)
    .selectFrom('channel_receipts')
    .select(['channel_id', 'provider_sid', 'message_id', 'received_at', 'media_folder'])
    .where('contact_phone', '=', phone)
    .where('channel_id', 'in', scoped(db, tenant).selectFrom('channels').select('id').where('provider', '=', 'twilio'))
    .orderBy('received_at')
    .orderBy('provider_sid')
    .execute()
}

export async function forgetReceiptPhone(db: Executor, tenant: Tenant, phone: string): Promise<number> {
  const r = await scoped(db, tenant).updateTable('channel_receipts').set({ contact_phone: null }).where('contact_phone', '=', phone).executeTakeFirst()
  return Number(r.numUpdatedRows)
}

/** The receipt's message has no stored media after all (its folder was taken before it committed). */
export async function clearReceiptMedia(db: Executor, tenant: Tenant, channelId: string, sid: string): Promise<void> {
  await scoped(db, tenant).updateTable('channel_receipts').set({ media_folder: '' }).where('channel_id', '=', channelId).where('provider_sid', '=', sid).execute()
}

// ---- media fetched for a message not committed yet ----

/** Written (committed on its own) before the first byte is fetched. */
export async function insertPendingMedia(db: Executor, row: ChannelMediaPendingTable): Promise<void> {
  await db.insertInto('channel_media_pending').values(row).execute()
}

/**
 * The message's transaction takes the folder: true when the row was there and not taken by the sweep
 * (PostgreSQL: a concurrent sweep's update waits for this transaction, then finds no row).
 */
export async function claimPendingMedia(db: Executor, tenant: Tenant, folder: string): Promise<boolean> {
  const r = await scoped(db, tenant).deleteFrom('channel_media_pending').where('folder', '=', folder).where('swept_at', 'is', null).executeTakeFirst()
  return Number(r.numDeletedRows) > 0
}

/** Rows written before `before` (every tenant's), oldest first. */
export function stalePendingMedia(db: Executor, before: string, limit: number): Promise<ChannelMediaPendingTable[]> {
  return db.selectFrom('channel_media_pending').selectAll().where('created_at', '<', before).orderBy('created_at').limit(limit).execute()
}

export function pendingMediaOf(db: Executor, tenant: Tenant, phone: string): Promise<ChannelMediaPendingTable[]> {
  return scoped(db, tenant).selectFrom('channel_media_pending').selectAll().where('contact_phone', '=', phone).execute()
}

/**
 * Takes a row for deletion (written before `before`, when given): from then on no transaction can claim
 * it. False when it is gone (its message took it). A row taken by a sweep that died is taken again.
 */
export async function takePendingMedia(db: Executor, row: ChannelMediaPendingTable, now: string, before: string | null): Promise<boolean> {
  let q = scoped(db, { workspaceId: row.workspace_id, mode: row.mode }).updateTable('channel_media_pending').set({ swept_at: now }).where('folder', '=', row.folder)
  if (before) q = q.where('created_at', '<', before)
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

export async function deletePendingMedia(db: Executor, row: ChannelMediaPendingTable): Promise<void> {
  await scoped(db, { workspaceId: row.workspace_id, mode: row.mode }).deleteFrom('channel_media_pending').where('folder', '=', row.folder).execute()
}
