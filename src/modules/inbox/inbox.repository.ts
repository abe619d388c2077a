import { sql } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './inbox.tables.js'
import type {
  Channel,
  ConversationStatus,
  InboxAiDraftsTable,
  InboxConversationsTable,
  InboxMessagesTable,
  InboxReplyTemplatesTable,
  InboxTagsTable,
} from './inbox.tables.js'

// The only SQL of the module. Every function takes the tenant first; another workspace's row is not found.

export interface ConversationFilters {
  status?: ConversationStatus
  /** A member id, or null for unassigned. */
  assignee?: string | null
  tagKey?: string
  channel?: Channel
  updatedAfter?: string
}

export async function insertConversation(db: Executor, row: InboxConversationsTable): Promise<void> {
  await db.insertInto('inbox_conversations').values(row).execute()
}

/** `forUpdate` locks the row on PostgreSQL (read-modify-write); SQLite has one writer anyway. */
export function findConversation(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<InboxConversationsTable | undefined> {
  let q = scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .selectAll()
    .where('id', '=', id)
  if (opts.forUpdate) q = q.forUpdate()
  return q.executeTakeFirst()
}

export function listConversations(
  db: Executor,
  tenant: Tenant,
  f: ConversationFilters,
  page: { after: string | null; limit: number },
): Promise<InboxConversationsTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .selectAll()
  if (f.status) q = q.where('status', '=', f.status)
  if (f.assignee !== undefined) q = f.assignee === null ? q.where('assignee_id', 'is', null) : q.where('assignee_id', '=', f.assignee)
  if (f.channel) q = q.where('channel', '=', f.channel)
  if (f.updatedAfter) q = q.where('updated_at', '>', f.updatedAfter)
  if (f.tagKey) {
    const tagged = scoped(db, tenant)
      .selectFrom('inbox_conversation_tags')
      .select('conversation_id')
      .where('tag_key', '=', f.tagKey)
    q = q.where('id', 'in', tagged)
  }
  if (page.after) q = q.where('id', '<', page.after)
  return q.orderBy('id', 'desc').limit(page.limit + 1).execute()
}

export async function updateConversation(db: Executor, tenant: Tenant, id: string, patch: Partial<InboxConversationsTable>): Promise<void> {
  await scoped(db, tenant)
    .updateTable('inbox_conversations')
    .set(patch)
    .where('id', '=', id)
    .execute()
}

export async function addConversationTags(db: Executor, tenant: Tenant, conversationId: string, tags: InboxTagsTable[]): Promise<void> {
  if (tags.length === 0) return
  await db
    .insertInto('inbox_conversation_tags')
    .values(tags.map((t) => ({ workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: conversationId, tag_id: t.id, tag_key: t.name_key })))
    .execute()
}

/** Move last_message_at (and updated_at) forward; never back, whatever order concurrent writers commit in. */
export async function touchConversation(db: Executor, tenant: Tenant, id: string, at: string): Promise<void> {
  await scoped(db, tenant)
    .updateTable('inbox_conversations')
    .set({ last_message_at: at, updated_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_message_at', 'is', null), eb('last_message_at', '<', at)]))
    .execute()
}

export async function replaceConversationTags(db: Executor, tenant: Tenant, conversationId: string, tags: InboxTagsTable[]): Promise<void> {
  await scoped(db, tenant)
    .deleteFrom('inbox_conversation_tags')
    .where('conversation_id', '=', conversationId)
    .execute()
  await addConversationTags(db, tenant, conversationId, tags)
}

export async function insertMessage(db: Executor, row: InboxMessagesTable): Promise<void> {
  await db.insertInto('inbox_messages').values(row).execute()
}

export function listMessages(
  db: Executor,
  tenant: Tenant,
  conversationId: string,
  page: { after: string | null; limit: number; order: 'asc' | 'desc' },
): Promise<InboxMessagesTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('inbox_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
  if (page.after) q = q.where('id', page.order === 'desc' ? '<' : '>', page.after)
  return q.orderBy('id', page.order).limit(page.limit + 1).execute()
}

/** The latest public (non-note) messages, oldest first: what a draft answers. */
export async function recentMessages(db: Executor, tenant: Tenant, conversationId: string, n: number): Promise<InboxMessagesTable[]> {
  const rows = await scoped(db, tenant)
    .selectFrom('inbox_messages')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('private', '=', 0)
    .orderBy('id', 'desc')
    .limit(n)
    .execute()
  return rows.reverse()
}

export async function insertDraft(db: Executor, row: InboxAiDraftsTable): Promise<void> {
  await db.insertInto('inbox_ai_drafts').values(row).execute()
}

export async function insertTemplate(db: Executor, row: InboxReplyTemplatesTable): Promise<void> {
  await db.insertInto('inbox_reply_templates').values(row).execute()
}

export function listTemplates(db: Executor, tenant: Tenant, page: { after: string | null; limit: number }): Promise<InboxReplyTemplatesTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('inbox_reply_templates')
    .selectAll()
  if (page.after) q = q.where('id', '<', page.after)
  return q.orderBy('id', 'desc').limit(page.limit + 1).execute()
}

export async function insertTag(db: Executor, row: InboxTagsTable): Promise<void> {
  await db.insertInto('inbox_tags').values(row).execute()
}

export function listTags(db: Executor, tenant: Tenant, page: { after: string | null; limit: number }): Promise<InboxTagsTable[]> {
  let q = scoped(db, tenant).selectFrom('inbox_tags').selectAll()
  if (page.after) q = q.where('id', '<', page.after)
  return q.orderBy('id', 'desc').limit(page.limit + 1).execute()
}

export function findTagsByKeys(db: Executor, tenant: Tenant, keys: string[]): Promise<InboxTagsTable[]> {
  if (keys.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('inbox_tags')
    .selectAll()
    .where('name_key', 'in', keys)
    .execute()
}

/** Rows per UTC day in [from, to] (YYYY-MM-DD, inclusive), for the usage report. */
export function countPerDay(db: Executor, tenant: Tenant, table: 'inbox_messages' | 'inbox_ai_drafts', from: string, to: string) {
  const day = sql<string>`substr(created_at, 1, 10)`
  return scoped(db, tenant)
    .selectFrom(table)
    .select([day.as('day'), sql<number>`count(*)`.as('n')])
    .where('created_at', '>=', from)
    .where('created_at', '<', new Date(Date.parse(to) + 86400_000).toISOString().slice(0, 10))
    .groupBy(day)
    .execute()
}

/** Health: the table answers (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('inbox_conversations').select('id').limit(1).execute()
}
