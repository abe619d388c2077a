import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import '../channels.tables.js'
import type { ChannelDeliveriesTable } from '../channels.tables.js'
import './web-chat-followup.tables.js'
import type { ChannelWebFollowupsTable, FollowupStatus } from './web-chat-followup.tables.js'

// The SQL of web chat read receipts and of replies continued by e-mail.

/** The visitor's replies up to `messageId` (ids sort by time) that they have not read yet. */
export function unreadReplies(db: Executor, tenant: Tenant, channelId: string, visitorId: string, messageId: string): Promise<ChannelDeliveriesTable[]> {
  return scoped(db, tenant)
    .selectFrom('channel_deliveries')
    .selectAll()
    .where('channel_id', '=', channelId)
    .where('to_phone', '=', visitorId)
    .where('message_id', '<=', messageId)
    .where('status', 'in', ['queued', 'sent', 'delivered'])
    .orderBy('message_id')
    .limit(500)
    .execute()
}

export async function insertFollowup(db: Executor, row: ChannelWebFollowupsTable): Promise<void> {
  await db
    .insertInto('channel_web_followups')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing())
    .execute()
}

export function findFollowup(db: Executor, tenant: Tenant, messageId: string): Promise<ChannelWebFollowupsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_web_followups').selectAll().where('message_id', '=', messageId).executeTakeFirst()
}

/** The conversation's replies waiting for their mail and due by `now`, oldest first. */
export function dueFollowups(db: Executor, tenant: Tenant, conversationId: string, now: string): Promise<ChannelWebFollowupsTable[]> {
  return scoped(db, tenant)
    .selectFrom('channel_web_followups')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('status', '=', 'pending')
    .where('due_at', '<=', now)
    .orderBy('message_id')
    .limit(50)
    .execute()
}

/**
 * Moves rows that are still in `from` and returns those moved: one guarded statement, so two runs never both take
 * a row, and a run that takes any of them takes all it can see (the other waits on the first row's lock, then finds
 * none pending) — row by row, two runs of one conversation could each take a part and send two mails.
 */
export async function moveFollowups(db: Executor, tenant: Tenant, ids: string[], from: FollowupStatus, to: FollowupStatus, outcome: string | null, now: string): Promise<string[]> {
  if (ids.length === 0) return []
  const rows = await scoped(db, tenant)
    .updateTable('channel_web_followups')
    .set({ status: to, outcome, updated_at: now })
    .where('message_id', 'in', ids)
    .where('status', '=', from)
    .returning('message_id')
    .execute()
  const moved = new Set(rows.map((r) => r.message_id))
  return ids.filter((id) => moved.has(id))
}

/** The visitor read these replies first: their mail is not sent. */
export async function cancelRead(db: Executor, tenant: Tenant, messageIds: string[], now: string): Promise<number> {
  if (messageIds.length === 0) return 0
  const r = await scoped(db, tenant)
    .updateTable('channel_web_followups')
    .set({ status: 'cancelled', outcome: 'read', updated_at: now })
    .where('message_id', 'in', messageIds)
    .where('status', '=', 'pending')
    .executeTakeFirst()
  return Number(r.numUpdatedRows)
}

export function followupsOfVisitors(db: Executor, tenant: Tenant, visitorIds: string[]): Promise<ChannelWebFollowupsTable[]> {
  if (visitorIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('channel_web_followups').selectAll().where('visitor_id', 'in', visitorIds).execute()
}

export async function deleteFollowupsOfVisitors(db: Executor, tenant: Tenant, visitorIds: string[]): Promise<number> {
  if (visitorIds.length === 0) return 0
  return Number((await scoped(db, tenant).deleteFrom('channel_web_followups').where('visitor_id', 'in', visitorIds).executeTakeFirst()).numDeletedRows)
}
