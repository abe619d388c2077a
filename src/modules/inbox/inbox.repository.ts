import { sql, type ExpressionBuilder } from 'kysely'
import type { Executor, Tables } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { DataSubject } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import './inbox.tables.js'
import * as search from './inbox-search.repository.js'
import { activityOf, previewOf } from './inbox.activity.js'
import { conversationText } from './inbox.search-text.js'
import type { InboxAiDraftsTable, InboxConversationsTable, InboxMessagesTable, InboxReplyTemplatesTable, InboxTagsTable } from './inbox.tables.js'

// The only SQL of the module. Every function takes the tenant first; another workspace's row is not found.

export { countOpen, deleteReadMarksOfMember, findReadMark, furthestReadMark, inboundUpTo, readMarksOfMember, upsertReadMark } from './inbox-read.repository.js'
export {
  activityKey,
  ACTIVITY_KEY_SHAPE,
  conversationIdsAt,
  findOpenByContact,
  listConversations,
  listConversationsByIds,
  messagesByIds,
  type ConversationFilters,
  type ListedConversation,
  type ListOrder,
} from './inbox-list.repository.js'

/** The row and its search document, in the caller's transaction. */
export async function insertConversation(db: Executor, row: InboxConversationsTable): Promise<void> {
  await insertConversationQ.run(db, row)
  await search.indexConversation(db, row)
}
const insertConversationQ = prepared((db, row: InboxConversationsTable) => db.insertInto('inbox_conversations').values(row))

/** `forUpdate` locks the row on PostgreSQL (read-modify-write); SQLite has one writer anyway. */
export function findConversation(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<InboxConversationsTable | undefined> {
  return findConversationQ.first(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, id, forUpdate: !!opts.forUpdate })
}
const findConversationQ = prepared((db, a: Tenant & { id: string; forUpdate: boolean }) => {
  const q = scoped(db, a).selectFrom('inbox_conversations').selectAll().where('id', '=', a.id)
  return a.forUpdate ? q.forUpdate() : q
})

/** A patch; when it changes the subject or contact name or e-mail, the conversation's search text follows. */
export async function updateConversation(db: Executor, tenant: Tenant, id: string, patch: Partial<InboxConversationsTable>): Promise<void> {
  await updateConversationQ.run(db, { ...patch, $workspaceId: tenant.workspaceId, $mode: tenant.mode, $id: id })
  if ('subject' in patch || 'contact_name' in patch || 'contact_email' in patch) {
    const row = await findConversation(db, tenant, id)
    if (row) await search.reindex(db, tenant, { conversationId: id }, conversationText(row))
  }
}
const updateConversationQ = prepared((db, a: Partial<InboxConversationsTable> & { $workspaceId: string; $mode: Tenant['mode']; $id: string }) => {
  const { $workspaceId, $mode, $id, ...set } = a
  return scoped(db, { workspaceId: $workspaceId, mode: $mode }).updateTable('inbox_conversations').set(set).where('id', '=', $id)
})

export async function addConversationTags(db: Executor, tenant: Tenant, conversationId: string, tags: InboxTagsTable[]): Promise<void> {
  if (tags.length === 0) return
  await db
    .insertInto('inbox_conversation_tags')
    .values(tags.map((t) => ({ workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: conversationId, tag_id: t.id, tag_key: t.name_key })))
    .execute()
}

/**
 * A new message becomes the conversation's last activity and preview; never an older one, whatever order
 * concurrent writers commit in (message ids grow with time).
 */
export async function touchConversation(db: Executor, tenant: Tenant, message: InboxMessagesTable): Promise<void> {
  await touchConversationQ.run(db, { $workspaceId: tenant.workspaceId, $mode: tenant.mode, $id: message.conversation_id, ...activityOf(message), updated_at: message.created_at })
}
type Touch = ReturnType<typeof activityOf> & { updated_at: string; $workspaceId: string; $mode: Tenant['mode']; $id: string }
const touchConversationQ = prepared((db, a: Touch) => {
  const { $workspaceId, $mode, $id, ...set } = a
  return scoped(db, { workspaceId: $workspaceId, mode: $mode })
    .updateTable('inbox_conversations')
    .set(set)
    .where('id', '=', $id)
    .where((eb) => eb.or([eb('last_message_id', 'is', null), eb('last_message_id', '<', set.last_message_id)]))
})

export async function replaceConversationTags(db: Executor, tenant: Tenant, conversationId: string, tags: InboxTagsTable[]): Promise<void> {
  await scoped(db, tenant).deleteFrom('inbox_conversation_tags').where('conversation_id', '=', conversationId).execute()
  await addConversationTags(db, tenant, conversationId, tags)
}

/** The message and its search document, in the caller's transaction. */
export async function insertMessage(db: Executor, row: InboxMessagesTable): Promise<void> {
  await insertMessageQ.run(db, row)
  await search.indexMessage(db, row)
}
const insertMessageQ = prepared((db, row: InboxMessagesTable) => db.insertInto('inbox_messages').values(row))

export function listMessages(db: Executor, tenant: Tenant, conversationId: string, page: { after: string | null; limit: number; order: 'asc' | 'desc' }): Promise<InboxMessagesTable[]> {
  const a = { workspaceId: tenant.workspaceId, mode: tenant.mode, conversationId, after: page.after ?? undefined, take: page.limit + 1 }
  return (page.order === 'desc' ? listMessagesDescQ : listMessagesAscQ).all(db, a)
}
const listMessagesIn = (order: 'asc' | 'desc') =>
  prepared((db, a: Tenant & { conversationId: string; after?: string; take: number }) => {
    let q = scoped(db, a).selectFrom('inbox_messages').selectAll().where('conversation_id', '=', a.conversationId)
    if (a.after) q = q.where('id', order === 'desc' ? '<' : '>', a.after)
    return q.orderBy('id', order).limit(a.take)
  })
const listMessagesDescQ = listMessagesIn('desc')
const listMessagesAscQ = listMessagesIn('asc')

/** The latest public (non-note) messages, oldest first: what a draft answers. */
export async function recentMessages(db: Executor, tenant: Tenant, conversationId: string, n: number): Promise<InboxMessagesTable[]> {
  const rows = await scoped(db, tenant).selectFrom('inbox_messages').selectAll().where('conversation_id', '=', conversationId).where('private', '=', 0).orderBy('id', 'desc').limit(n).execute()
  return rows.reverse()
}

export async function insertDraft(db: Executor, row: InboxAiDraftsTable): Promise<void> {
  await db.insertInto('inbox_ai_drafts').values(row).execute()
}

export async function insertTemplate(db: Executor, row: InboxReplyTemplatesTable): Promise<void> {
  await db.insertInto('inbox_reply_templates').values(row).execute()
}

export function listTemplates(db: Executor, tenant: Tenant, page: { after: string | null; limit: number }): Promise<InboxReplyTemplatesTable[]> {
  let q = scoped(db, tenant).selectFrom('inbox_reply_templates').selectAll()
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function insertTag(db: Executor, row: InboxTagsTable): Promise<void> {
  await db.insertInto('inbox_tags').values(row).execute()
}

export function listTags(db: Executor, tenant: Tenant, page: { after: string | null; limit: number }): Promise<InboxTagsTable[]> {
  let q = scoped(db, tenant).selectFrom('inbox_tags').selectAll()
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export function findTagsByKeys(db: Executor, tenant: Tenant, keys: string[]): Promise<InboxTagsTable[]> {
  if (keys.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('inbox_tags').selectAll().where('name_key', 'in', keys).execute()
}

/** Health: the table answers (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('inbox_conversations').select('id').limit(1).execute()
}

/** One message by id (PII redaction of a stored message). */
export function findMessage(db: Executor, tenant: Tenant, id: string): Promise<InboxMessagesTable | undefined> {
  return scoped(db, tenant).selectFrom('inbox_messages').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function setMessageDelivery(db: Executor, tenant: Tenant, id: string, delivery: string): Promise<void> {
  await scoped(db, tenant).updateTable('inbox_messages').set({ delivery }).where('id', '=', id).execute()
}

/** Every message of a conversation, oldest first (PII redaction of a conversation). */
export function allMessagesOf(db: Executor, tenant: Tenant, conversationId: string): Promise<InboxMessagesTable[]> {
  return scoped(db, tenant).selectFrom('inbox_messages').selectAll().where('conversation_id', '=', conversationId).orderBy('id').execute()
}

/** Replaces a message's text (redaction applied in place); the message keeps its id and time. */
export async function setMessageContent(db: Executor, tenant: Tenant, id: string, content: string): Promise<void> {
  const m = await scoped(db, tenant).selectFrom('inbox_messages').select('conversation_id').where('id', '=', id).executeTakeFirst()
  await scoped(db, tenant).updateTable('inbox_messages').set({ content }).where('id', '=', id).execute()
  await search.reindex(db, tenant, { messageId: id }, content)
  // A redacted last message: its preview too.
  if (m) {
    await scoped(db, tenant)
      .updateTable('inbox_conversations')
      .set({ last_message_preview: previewOf(content) })
      .where('id', '=', m.conversation_id)
      .where('last_message_id', '=', id)
      .execute()
  }
}

// ---- data subjects and retention (inbox.privacy.ts, inbox.retention.ts) ----

/** The contact is the subject when any identifier the subject has matches (emails compared lower-cased). */
const contactIs = (s: DataSubject) => (eb: ExpressionBuilder<Tables, 'inbox_conversations'>) =>
  eb.or([
    ...(s.email ? [eb(eb.fn('lower', ['contact_email']), '=', s.email.toLowerCase())] : []),
    ...(s.phone ? [eb('contact_phone', '=', s.phone)] : []),
    ...(s.external_id ? [eb('contact_external_id', '=', s.external_id)] : []),
  ])
const identified = (s: DataSubject) => !!(s.email || s.phone || s.external_id)

/** The subject's conversations, oldest first. No index on the contact: a scan of the tenant's conversations (DSARs are rare). */
export function conversationsOfSubject(db: Executor, tenant: Tenant, s: DataSubject): Promise<InboxConversationsTable[]> {
  if (!identified(s)) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('inbox_conversations').selectAll().where(contactIs(s)).orderBy('id').execute()
}

export async function conversationIdsOfSubject(db: Executor, tenant: Tenant, s: DataSubject): Promise<string[]> {
  if (!identified(s)) return []
  const rows = await scoped(db, tenant).selectFrom('inbox_conversations').select('id').where(contactIs(s)).orderBy('id').execute()
  return rows.map((r) => r.id)
}

export function messagesOfConversations(db: Executor, tenant: Tenant, ids: string[]): Promise<InboxMessagesTable[]> {
  if (ids.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('inbox_messages').selectAll().where('conversation_id', 'in', ids).orderBy('id').execute()
}

export function draftsOfConversations(db: Executor, tenant: Tenant, ids: string[]): Promise<InboxAiDraftsTable[]> {
  if (ids.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('inbox_ai_drafts').selectAll().where('conversation_id', 'in', ids).orderBy('id').execute()
}

/** `%needle%` for LIKE, lower-cased, its wildcards taken literally (backslash-escaped). */
const likePattern = (needle: string) => `%${needle.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`

/**
 * Messages whose text contains one of `needles`, case-insensitively: candidates (a longer address that
 * contains the needle is one too), which the caller checks. A scan of the tenant's messages.
 */
export function messagesContaining(db: Executor, tenant: Tenant, needles: string[]): Promise<InboxMessagesTable[]> {
  if (needles.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('inbox_messages')
    .selectAll()
    .where((eb) => eb.or(needles.map((n) => sql<boolean>`lower(${eb.ref('content')}) like ${likePattern(n)} escape '\\'`)))
    .orderBy('id')
    .execute()
}

/** Conversations with everything keyed by them in the inbox (tag links, AI drafts, messages); rows deleted per table, and the ids of the conversations that were there. */
export async function deleteConversations(db: Executor, tenant: Tenant, ids: string[]): Promise<{ conversations: number; messages: number; drafts: number; deleted: string[] }> {
  if (ids.length === 0) return { conversations: 0, messages: 0, drafts: 0, deleted: [] }
  await scoped(db, tenant).deleteFrom('inbox_conversation_tags').where('conversation_id', 'in', ids).execute()
  await scoped(db, tenant).deleteFrom('inbox_read_marks').where('conversation_id', 'in', ids).execute()
  await search.deleteDocsOfConversations(db, tenant, ids)
  const drafts = await scoped(db, tenant).deleteFrom('inbox_ai_drafts').where('conversation_id', 'in', ids).executeTakeFirst()
  const messages = await scoped(db, tenant).deleteFrom('inbox_messages').where('conversation_id', 'in', ids).executeTakeFirst()
  const deleted = (await scoped(db, tenant).deleteFrom('inbox_conversations').where('id', 'in', ids).returning('id').execute()).map((r) => r.id)
  return { conversations: deleted.length, messages: Number(messages.numDeletedRows), drafts: Number(drafts.numDeletedRows), deleted }
}

/** Last activity: the last message, else the last update. Not indexed: retention reads the tenant's conversations. */
const lastActivity = (eb: ExpressionBuilder<Tables, 'inbox_conversations'>) => eb.fn.coalesce('last_message_at', 'updated_at')

export async function countInactiveConversations(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .select((eb) => eb.fn.countAll().as('n'))
    .where((eb) => eb(lastActivity(eb), '<', before))
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Up to `limit` of them, least recently active first. */
export async function inactiveConversationIds(db: Executor, tenant: Tenant, before: string, limit: number): Promise<string[]> {
  const rows = await scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .select('id')
    .where((eb) => eb(lastActivity(eb), '<', before))
    .orderBy((eb) => lastActivity(eb))
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map((r) => r.id)
}
