import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { deleteConversationLinks } from '../channels.repository.js'
import './email.tables.js'
import type { ChannelEmailConversationsTable, ChannelEmailsTable } from './email.tables.js'

// The email channel's SQL. Lookups by address and reply token take no tenant: mail arrives without one,
// and its recipient names the channel (unique indexes) — the SMTP listener and the webhooks then act in
// that channel's tenant only.

export async function insertEmail(db: Executor, row: ChannelEmailsTable): Promise<void> {
  await db.insertInto('channel_emails').values(row).execute()
}

export function findEmail(db: Executor, tenant: Tenant, channelId: string): Promise<ChannelEmailsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_emails').selectAll().where('channel_id', '=', channelId).executeTakeFirst()
}

export async function emailsOf(db: Executor, tenant: Tenant, channelIds: string[]): Promise<ChannelEmailsTable[]> {
  if (channelIds.length === 0) return []
  return scoped(db, tenant).selectFrom('channel_emails').selectAll().where('channel_id', 'in', channelIds).execute()
}

/** The channel of an address, in any workspace (mail names its channel by the recipient). */
export function findEmailByAddress(db: Executor, address: string): Promise<ChannelEmailsTable | undefined> {
  return db.selectFrom('channel_emails').selectAll().where('address', '=', address.toLowerCase()).executeTakeFirst()
}

export async function updateEmail(db: Executor, tenant: Tenant, channelId: string, patch: Partial<ChannelEmailsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('channel_emails').set(patch).where('channel_id', '=', channelId).execute()
}

export async function deleteEmail(db: Executor, tenant: Tenant, channelId: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('channel_emails').where('channel_id', '=', channelId).execute()
}

export function sealedEmails(db: Executor, after: string | null, limit: number): Promise<ChannelEmailsTable[]> {
  let s = db.selectFrom('channel_emails').selectAll()
  if (after) s = s.where('channel_id', '>', after)
  return s.orderBy('channel_id').limit(limit).execute()
}

export async function resealEmail(
  db: Executor,
  before: ChannelEmailsTable,
  patch: Pick<ChannelEmailsTable, 'relay_password_sealed' | 'webhook_password_sealed' | 'mailgun_key_sealed'>,
): Promise<boolean> {
  const r = await db
    .updateTable('channel_emails')
    .set(patch)
    .where('channel_id', '=', before.channel_id)
    .where((eb) =>
      eb.and([
        eq(eb, 'relay_password_sealed', before.relay_password_sealed),
        eq(eb, 'webhook_password_sealed', before.webhook_password_sealed),
        eq(eb, 'mailgun_key_sealed', before.mailgun_key_sealed),
      ]),
    )
    .executeTakeFirst()
  return Number(r.numUpdatedRows) > 0
}

const eq = (eb: any, column: string, value: string | null) => (value === null ? eb(column, 'is', null) : eb(column, '=', value))

// ---- threads ----

export function findEmailConversation(db: Executor, tenant: Tenant, conversationId: string): Promise<ChannelEmailConversationsTable | undefined> {
  return scoped(db, tenant).selectFrom('channel_email_conversations').selectAll().where('conversation_id', '=', conversationId).executeTakeFirst()
}

/** A conversation by its reply token, in any workspace (the token is in the recipient address). */
export function findEmailConversationByToken(db: Executor, token: string): Promise<ChannelEmailConversationsTable | undefined> {
  return db.selectFrom('channel_email_conversations').selectAll().where('reply_token', '=', token).executeTakeFirst()
}

export async function insertEmailConversation(db: Executor, row: ChannelEmailConversationsTable): Promise<void> {
  await db
    .insertInto('channel_email_conversations')
    .values(row)
    .onConflict((oc) => oc.column('conversation_id').doNothing())
    .execute()
}

export async function updateEmailConversation(db: Executor, tenant: Tenant, conversationId: string, patch: Partial<ChannelEmailConversationsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('channel_email_conversations').set(patch).where('conversation_id', '=', conversationId).execute()
}

/** The conversation the first of `headerIds` that we know belongs to (newest reference first). */
export async function conversationOfHeaders(db: Executor, tenant: Tenant, channelId: string, headerIds: string[]): Promise<string | null> {
  if (headerIds.length === 0) return null
  const rows = await scoped(db, tenant).selectFrom('channel_email_threads').select(['header_id', 'conversation_id']).where('channel_id', '=', channelId).where('header_id', 'in', headerIds).execute()
  for (const id of headerIds) {
    const hit = rows.find((r) => r.header_id === id)
    if (hit) return hit.conversation_id
  }
  return null
}

export async function insertThreadHeader(db: Executor, tenant: Tenant, channelId: string, headerId: string, conversationId: string): Promise<void> {
  await db
    .insertInto('channel_email_threads')
    .values({ channel_id: channelId, header_id: headerId, workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: conversationId })
    .onConflict((oc) => oc.columns(['channel_id', 'header_id']).doNothing())
    .execute()
}

// ---- privacy ----

export function conversationsByEmail(db: Executor, tenant: Tenant, email: string): Promise<ChannelEmailConversationsTable[]> {
  return scoped(db, tenant).selectFrom('channel_email_conversations').selectAll().where('contact_email', '=', email.toLowerCase()).execute()
}

export function threadHeadersOf(db: Executor, tenant: Tenant, conversationIds: string[]): Promise<{ channel_id: string; header_id: string; conversation_id: string }[]> {
  if (conversationIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('channel_email_threads')
    .select(['channel_id', 'header_id', 'conversation_id'])
    .where('conversation_id', 'in', conversationIds)
    .orderBy('channel_id')
    .orderBy('header_id')
    .execute()
}

/** Forgets a customer's address: their threads' rows, conversation links and delivery records. */
export async function eraseByEmail(db: Executor, tenant: Tenant, email: string): Promise<number> {
  const address = email.toLowerCase()
  const convs = (await conversationsByEmail(db, tenant, address)).map((r) => r.conversation_id)
  let n = 0
  if (convs.length) n += Number((await scoped(db, tenant).deleteFrom('channel_email_threads').where('conversation_id', 'in', convs).executeTakeFirst()).numDeletedRows)
  n += Number((await scoped(db, tenant).deleteFrom('channel_email_conversations').where('contact_email', '=', address).executeTakeFirst()).numDeletedRows)
  n += await deleteConversationLinks(db, tenant, [address])
  n += Number((await scoped(db, tenant).deleteFrom('channel_deliveries').where('to_phone', '=', address).executeTakeFirst()).numDeletedRows)
  return n
}
