import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { deleteConversationLinks } from '../channels.repository.js'
import '../channels.tables.js'
import type { ChannelConversationsTable, ChannelDeliveriesTable, ChannelsTable, ChannelWebVisitorsTable } from '../channels.tables.js'
import './web-chat.tables.js'
import type { ChannelWebAttachmentsTable } from './web-chat.tables.js'

// The web chat's SQL (beside channels.repository.ts). The widget arrives without a tenant: it names its
// channel by the public key, and everything after is scoped to that channel's workspace.

/** A web chat channel by its public key, in any workspace (the widget's only way to name it). */
export function findChannelByWidgetKey(db: Executor, key: string): Promise<ChannelsTable | undefined> {
  return db.selectFrom('channels').selectAll().where('widget_key', '=', key).where('type', '=', 'web_chat').executeTakeFirst()
}

export async function insertVisitor(db: Executor, row: ChannelWebVisitorsTable): Promise<void> {
  await db.insertInto('channel_web_visitors').values(row).execute()
}

export function findVisitor(db: Executor, tenant: Tenant, channelId: string, id: string): Promise<ChannelWebVisitorsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_web_visitors').selectAll().where('channel_id', '=', channelId).where('id', '=', id).executeTakeFirst()
}

export function findVisitorByUser(db: Executor, tenant: Tenant, channelId: string, userId: string): Promise<ChannelWebVisitorsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_web_visitors').selectAll().where('channel_id', '=', channelId).where('user_id', '=', userId).executeTakeFirst()
}

export async function updateVisitor(db: Executor, tenant: Tenant, id: string, patch: Partial<ChannelWebVisitorsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('channel_web_visitors').set(patch).where('id', '=', id).execute()
}

/** The conversations a visitor had on the channel (their own only: the widget shows nothing else). */
export function visitorConversations(db: Executor, tenant: Tenant, channelId: string, visitorId: string): Promise<ChannelConversationsTable[]> {
  return scoped(db, tenant)
    .selectFrom('channel_conversations')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('contact_phone', '=', visitorId)
    .orderBy('conversation_id', 'desc')
    .limit(20)
    .execute()
}

/** Privacy: the visitors a person is, by the e-mail they gave or the host site's (verified) user id. */
export function visitorsOf(db: Executor, tenant: Tenant, by: { email: string | null; userId: string | null }): Promise<ChannelWebVisitorsTable[]> {
  if (!by.email && !by.userId) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('channel_web_visitors')
    .selectAll()
    .where((eb) => eb.or([...(by.email ? [eb('email', '=', by.email.toLowerCase())] : []), ...(by.userId ? [eb('user_id', '=', by.userId)] : [])]))
    .execute()
}

/** Replies of the channel among `messageIds` not yet shown to the visitor (queued or sent). */
export function undelivered(db: Executor, tenant: Tenant, channelId: string, messageIds: string[]): Promise<ChannelDeliveriesTable[]> {
  if (messageIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('channel_deliveries').selectAll().where('channel_id', '=', channelId).where('message_id', 'in', messageIds).where('status', 'in', ['queued', 'sent']).execute()
}

export async function insertAttachment(db: Executor, row: ChannelWebAttachmentsTable): Promise<void> {
  await db
    .insertInto('channel_web_attachments')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .execute()
}

/** A file by its id, in any workspace: the id is the capability (only for serving it). */
export function findAttachmentAnywhere(db: Executor, id: string): Promise<ChannelWebAttachmentsTable | undefined> {
  return db.selectFrom('channel_web_attachments').selectAll().where('id', '=', id).executeTakeFirst()
}

export function attachmentsOf(db: Executor, tenant: Tenant, by: { visitorIds?: string[]; channelId?: string; ids?: string[] }): Promise<ChannelWebAttachmentsTable[]> {
  let q = scoped(db, tenant).selectFrom('channel_web_attachments').selectAll()
  if (by.ids) q = q.where('id', 'in', by.ids.length ? by.ids : [''])
  if (by.visitorIds) q = q.where('visitor_id', 'in', by.visitorIds.length ? by.visitorIds : [''])
  if (by.channelId) q = q.where('channel_id', '=', by.channelId)
  return q.execute()
}

/** Forgets visitors (by id): their rows, files' rows, consent rows and conversation links (the caller deletes the blobs). */
export async function eraseVisitors(db: Executor, tenant: Tenant, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0
  const files = await scoped(db, tenant).deleteFrom('channel_web_attachments').where('visitor_id', 'in', ids).executeTakeFirst()
  const a = await scoped(db, tenant).deleteFrom('channel_web_visitors').where('id', 'in', ids).executeTakeFirst()
  const b = await scoped(db, tenant).deleteFrom('channel_contacts').where('contact_phone', 'in', ids).executeTakeFirst()
  const c = await deleteConversationLinks(db, tenant, ids)
  return Number(files.numDeletedRows) + Number(a.numDeletedRows) + Number(b.numDeletedRows) + c
}
