import type { Executor } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import { keyOf, TransactionMemo } from '../../kernel/transaction-memo.js'
import './channels.tables.js'
import type { ChannelContactsTable, ChannelConversationsTable, ChannelDeliveriesTable, ChannelReceiptsTable, ChannelsTable } from './channels.tables.js'

// The only SQL of the channels module. Every function takes the tenant first, except the lookups of a
// provider's webhook, which arrives without one (it proves its channel by the signature next).

type Page = { after: string | null; limit: number }

// A channel, read once per transaction (an outbound message's subscribers both need it); every write of
// `channels` below forgets the memo.
const channels = new TransactionMemo<ChannelsTable | undefined>()
const channelQ = prepared((db, a: Tenant & { id: string }) => scoped(db, a).selectFrom('channels').selectAll().where('id', '=', a.id))

export async function insertChannel(db: Executor, row: ChannelsTable): Promise<void> {
  await db.insertInto('channels').values(row).execute()
  channels.forget(db)
}

/** Shared within a transaction: read only. */
export function findChannel(db: Executor, tenant: Tenant, id: string): Promise<ChannelsTable | undefined> {
  return channels.read(db, keyOf(tenant, id), () => channelQ.first(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, id }))
}

/** A channel by id in any workspace: only for provider webhooks, which prove it by their signature next. */
export function findChannelAnywhere(db: Executor, id: string): Promise<ChannelsTable | undefined> {
  return db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findChannelByNumber(db: Executor, tenant: Tenant, type: ChannelsTable['type'], phone: string): Promise<ChannelsTable | undefined> {
  return scoped(db, tenant).selectFrom('channels').selectAll().where('type', '=', type).where('phone_number', '=', phone).executeTakeFirst()
}

export function listChannels(db: Executor, tenant: Tenant, q: { type?: string }, page: Page): Promise<ChannelsTable[]> {
  let s = scoped(db, tenant).selectFrom('channels').selectAll()
  if (q.type) s = s.where('type', '=', q.type as ChannelsTable['type'])
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateChannel(db: Executor, tenant: Tenant, id: string, patch: Partial<ChannelsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('channels').set(patch).where('id', '=', id).execute()
  channels.forget(db)
}

export async function deleteChannel(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('channel_contacts').where('channel_id', '=', id).execute()
  // A web chat's visitors (their e-mail, the site's user ids) go with it; their tokens then open nothing.
  await scoped(db, tenant).deleteFrom('channel_web_visitors').where('channel_id', '=', id).execute()
  await scoped(db, tenant).deleteFrom('channels').where('id', '=', id).execute()
  channels.forget(db)
}

/** Channels with a sealed token, after `after` in id order (`svc secrets reseal`, every tenant). */
export function sealedChannels(db: Executor, after: string | null, limit: number): Promise<ChannelsTable[]> {
  let s = db.selectFrom('channels').selectAll().where('auth_token_sealed', 'is not', null)
  if (after) s = s.where('id', '>', after)
  return s.orderBy('id').limit(limit).execute()
}

export async function resealChannel(db: Executor, id: string, before: string, after: string): Promise<boolean> {
  const r = await db.updateTable('channels').set({ auth_token_sealed: after }).where('id', '=', id).where('auth_token_sealed', '=', before).executeTakeFirst()
  channels.forget(db)
  return Number(r.numUpdatedRows) > 0
}

// ---- inbound ----

/** Records a provider message; false when that (channel, sid) was received before (a retry). */
export async function insertReceipt(db: Executor, row: ChannelReceiptsTable): Promise<boolean> {
  const r = await db
    .insertInto('channel_receipts')
    .values(row)
    .onConflict((oc) => oc.columns(['channel_id', 'provider_sid']).doNothing())
    .returning('provider_sid')
    .executeTakeFirst()
  return r !== undefined
}

export async function setReceiptMessage(db: Executor, tenant: Tenant, channelId: string, sid: string, messageId: string, conversationId: string): Promise<void> {
  await scoped(db, tenant).updateTable('channel_receipts').set({ message_id: messageId, conversation_id: conversationId }).where('channel_id', '=', channelId).where('provider_sid', '=', sid).execute()
}

/**
 * The customer's row, created when missing and then read locked (PostgreSQL): two messages of one new
 * customer arriving together queue here, so they land in one conversation.
 */
export async function lockContact(db: Executor, tenant: Tenant, channelId: string, phone: string, now: string, forUpdate: boolean): Promise<ChannelContactsTable> {
  await db
    .insertInto('channel_contacts')
    .values({ channel_id: channelId, workspace_id: tenant.workspaceId, mode: tenant.mode, contact_phone: phone, conversation_id: null, opted_out: 0, opted_out_at: null, updated_at: now })
    .onConflict((oc) => oc.columns(['channel_id', 'contact_phone']).doNothing())
    .execute()
  const q = scoped(db, tenant).selectFrom('channel_contacts').selectAll().where('channel_id', '=', channelId).where('contact_phone', '=', phone)
  return (forUpdate ? q.forUpdate() : q).executeTakeFirstOrThrow()
}

export async function updateContact(db: Executor, tenant: Tenant, channelId: string, phone: string, patch: Partial<ChannelContactsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('channel_contacts').set(patch).where('channel_id', '=', channelId).where('contact_phone', '=', phone).execute()
}

export function findContact(db: Executor, tenant: Tenant, channelId: string, phone: string): Promise<ChannelContactsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_contacts').selectAll().where('channel_id', '=', channelId).where('contact_phone', '=', phone).executeTakeFirst()
}

// A conversation's link, read once per transaction: an outbound message's subscribers (the send, the web
// chat's e-mail follow-up) and the out-of-hours reply all ask for it. Every write below forgets the memo.
const links = new TransactionMemo<ChannelConversationsTable | undefined>()
const linkQ = prepared((db, a: Tenant & { id: string }) => scoped(db, a).selectFrom('channel_conversations').selectAll().where('conversation_id', '=', a.id))

export async function insertConversationLink(db: Executor, row: ChannelConversationsTable): Promise<void> {
  await db
    .insertInto('channel_conversations')
    .values(row)
    .onConflict((oc) => oc.column('conversation_id').doNothing())
    .execute()
  links.forget(db)
}

/** The link of a conversation no channel talks to is undefined. Shared within a transaction: read only. */
export function findConversationLink(db: Executor, tenant: Tenant, conversationId: string): Promise<ChannelConversationsTable | undefined> {
  return links.read(db, keyOf(tenant, conversationId), () => linkQ.first(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, id: conversationId }))
}

/** Removes the links of customers (by phone number, e-mail address or web chat visitor id). */
export async function deleteConversationLinks(db: Executor, tenant: Tenant, contacts: string[]): Promise<number> {
  if (contacts.length === 0) return 0
  const r = await scoped(db, tenant).deleteFrom('channel_conversations').where('contact_phone', 'in', contacts).executeTakeFirst()
  links.forget(db)
  return Number(r.numDeletedRows)
}

/** Removes a conversation's link (the inbox deleted the conversation). */
export async function deleteConversationLink(db: Executor, tenant: Tenant, conversationId: string): Promise<number> {
  const r = await scoped(db, tenant).deleteFrom('channel_conversations').where('conversation_id', '=', conversationId).executeTakeFirst()
  links.forget(db)
  return Number(r.numDeletedRows)
}

// ---- privacy ----

export function contactsByPhone(db: Executor, tenant: Tenant, phone: string): Promise<ChannelContactsTable[]> {
  return scoped(db, tenant).selectFrom('channel_contacts').selectAll().where('contact_phone', '=', phone).execute()
}

/** Forgets a customer's phone number everywhere in the module; returns the rows removed. */
export async function eraseByPhone(db: Executor, tenant: Tenant, phone: string): Promise<number> {
  const a = await scoped(db, tenant).deleteFrom('channel_contacts').where('contact_phone', '=', phone).executeTakeFirst()
  const b = await deleteConversationLinks(db, tenant, [phone])
  const c = await scoped(db, tenant).deleteFrom('channel_deliveries').where('to_phone', '=', phone).executeTakeFirst()
  return Number(a.numDeletedRows) + b + Number(c.numDeletedRows)
}

// ---- outbound ----

export async function insertDelivery(db: Executor, row: ChannelDeliveriesTable): Promise<void> {
  await db
    .insertInto('channel_deliveries')
    .values(row)
    .onConflict((oc) => oc.column('message_id').doNothing())
    .execute()
}

export function findDelivery(db: Executor, tenant: Tenant, messageId: string): Promise<ChannelDeliveriesTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_deliveries').selectAll().where('message_id', '=', messageId).executeTakeFirst()
}

export function findDeliveryBySid(db: Executor, tenant: Tenant, channelId: string, sid: string): Promise<ChannelDeliveriesTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_deliveries').selectAll().where('channel_id', '=', channelId).where('provider_sid', '=', sid).executeTakeFirst()
}

/** Moves a delivery only from the state read (a guarded update); false when someone else moved it first. */
export async function updateDeliveryIf(
  db: Executor,
  tenant: Tenant,
  messageId: string,
  from: Pick<ChannelDeliveriesTable, 'status' | 'provider_sid'>,
  patch: Partial<ChannelDeliveriesTable>,
): Promise<boolean> {
  let q = scoped(db, tenant).updateTable('channel_deliveries').set(patch).where('message_id', '=', messageId).where('status', '=', from.status)
  q = from.provider_sid === null ? q.where('provider_sid', 'is', null) : q.where('provider_sid', '=', from.provider_sid)
  const r = await q.executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

// ---- the channel's bot ----

export function findReceipt(db: Executor, tenant: Tenant, channelId: string, sid: string): Promise<ChannelReceiptsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_receipts').selectAll().where('channel_id', '=', channelId).where('provider_sid', '=', sid).executeTakeFirst()
}

/** Claims the bot's answer to one customer message; false when it was answered (or is being answered) already. */
export async function claimBotReply(db: Executor, tenant: Tenant, channelId: string, sid: string, mark: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('channel_receipts')
    .set({ bot_reply_id: mark })
    .where('channel_id', '=', channelId)
    .where('provider_sid', '=', sid)
    .where('bot_reply_id', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

export async function setBotReply(db: Executor, tenant: Tenant, channelId: string, sid: string, messageId: string): Promise<void> {
  await scoped(db, tenant).updateTable('channel_receipts').set({ bot_reply_id: messageId }).where('channel_id', '=', channelId).where('provider_sid', '=', sid).execute()
}

export async function setBotState(db: Executor, tenant: Tenant, conversationId: string, state: ChannelConversationsTable['bot_state']): Promise<void> {
  await scoped(db, tenant).updateTable('channel_conversations').set({ bot_state: state }).where('conversation_id', '=', conversationId).execute()
  links.forget(db)
}

export async function setOutOfHoursReply(db: Executor, tenant: Tenant, conversationId: string, at: string): Promise<void> {
  await scoped(db, tenant).updateTable('channel_conversations').set({ out_of_hours_reply_at: at }).where('conversation_id', '=', conversationId).execute()
  links.forget(db)
}
