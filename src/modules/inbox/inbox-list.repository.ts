import type { ExpressionBuilder, SelectQueryBuilder } from 'kysely'
import type { Executor, Tables } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './inbox.tables.js'
import { CONVERSATION_VIEW_COLUMNS, type ConversationViewRow } from './inbox.views.js'
import type { Channel, ConversationStatus, InboxMessagesTable } from './inbox.tables.js'

// The conversation lists: newest created first (ids), or newest activity first (last_activity_at, id),
// each walking an index in list order so a page costs the same at a million conversations. A member's
// read mark is joined per row (a primary-key lookup) for unread_count and the `unread` filter.

export interface ConversationFilters {
  status?: ConversationStatus
  /** A member id, or null for unassigned. */
  assignee?: string | null
  tagKey?: string
  channel?: Channel
  updatedAfter?: string
  /** The member whose read marks give unread_count (member credentials only). */
  memberId?: string
  /** Only conversations with inbound messages after the member's mark (needs memberId). */
  unread?: boolean
}

export interface ListPage {
  /** Created order: the last id. Activity order: `<last_activity_at>~<id>`. */
  after: string | null
  limit: number
}

export type ListOrder = 'created' | 'last_activity'

export interface ListedConversation extends ConversationViewRow {
  inbound_count: number
  read_inbound_count: number | null
}

/** The cursor key of a row in activity order. */
export const activityKey = (r: { last_activity_at: string; id: string }): string => `${r.last_activity_at}~${r.id}`
export const ACTIVITY_KEY_SHAPE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z~[a-z]{2,5}_[0-9A-Za-z]{1,40}$/

export function listConversations(db: Executor, tenant: Tenant, f: ConversationFilters, page: ListPage, order: ListOrder = 'created'): Promise<ListedConversation[]> {
  const base = { workspaceId: tenant.workspaceId, mode: tenant.mode, ...f, take: page.limit + 1 }
  if (order === 'created') return listByCreatedQ.all(db, { ...base, after: page.after ?? undefined }) as Promise<ListedConversation[]>
  const [afterAt, afterId] = page.after ? page.after.split('~') : [undefined, undefined]
  return listByActivityQ.all(db, { ...base, afterAt, afterId }) as Promise<ListedConversation[]>
}

type Args = Tenant & ConversationFilters & { take: number }
type ConvQuery = SelectQueryBuilder<Tables, 'inbox_conversations' | 'inbox_read_marks', object>

/** The columns of a view, the inbound count and (with a member) the mark's count. `from` starts the query. */
function base(db: Executor, a: Args, from?: 'tags'): ConvQuery {
  let q =
    from === 'tags'
      ? // Ids are unique, so the join needs no tenant columns.
        (scoped(db, a).selectFrom('inbox_conversation_tags').innerJoin('inbox_conversations', 'inbox_conversations.id', 'inbox_conversation_tags.conversation_id') as unknown as ConvQuery)
      : (scoped(db, a).selectFrom('inbox_conversations') as unknown as ConvQuery)
  q = q.select(CONVERSATION_VIEW_COLUMNS.map((c) => `inbox_conversations.${c}` as const)).select('inbox_conversations.inbound_count')
  if (a.memberId) {
    q = q
      .leftJoin('inbox_read_marks', (j) => j.onRef('inbox_read_marks.conversation_id', '=', 'inbox_conversations.id').on('inbox_read_marks.member_id', '=', a.memberId!))
      .select('inbox_read_marks.read_inbound_count')
    if (a.unread) q = q.where((eb) => eb('inbox_conversations.inbound_count', '>', eb.fn.coalesce('inbox_read_marks.read_inbound_count', eb.lit(0))))
  }
  if (a.status) q = q.where('inbox_conversations.status', '=', a.status)
  if (a.assignee !== undefined) q = a.assignee === null ? q.where('inbox_conversations.assignee_id', 'is', null) : q.where('inbox_conversations.assignee_id', '=', a.assignee)
  if (a.channel) q = q.where('inbox_conversations.channel', '=', a.channel)
  if (a.updatedAfter) q = q.where('inbox_conversations.updated_at', '>', a.updatedAfter)
  return q
}

const tagged = (key: string) => (eb: ExpressionBuilder<Tables, 'inbox_conversations'>) =>
  eb.exists(
    eb
      .selectFrom('inbox_conversation_tags')
      .select('inbox_conversation_tags.tag_id')
      .whereRef('inbox_conversation_tags.conversation_id', '=', 'inbox_conversations.id')
      .where('inbox_conversation_tags.tag_key', '=', key),
  )

const listByCreatedQ = prepared((db, a: Args & { after?: string }) => {
  // A tag filter walks the tag index (tenant, tag, conversation id) in id order and joins each hit: an
  // `id in (tagged ids)` sub-select made SQLite read every tagged id on every page (a million-row table:
  // 640 ms a page, against 0.5 ms this way). Ids are unique, so the join needs no tenant columns.
  if (a.tagKey) {
    let q = (base(db, a, 'tags') as unknown as SelectQueryBuilder<Tables, 'inbox_conversations' | 'inbox_conversation_tags', object>).where('inbox_conversation_tags.tag_key', '=', a.tagKey)
    if (a.after) q = q.where('inbox_conversation_tags.conversation_id', '<', a.after)
    return q.orderBy('inbox_conversation_tags.conversation_id', 'desc').limit(a.take)
  }
  let q = base(db, a)
  if (a.after) q = q.where('inbox_conversations.id', '<', a.after)
  return q.orderBy('inbox_conversations.id', 'desc').limit(a.take)
})

/**
 * Newest activity first: the activity index of the filter (none, status or assignee) walked backwards
 * from the cursor's (last_activity_at, id). Other filters (tag, channel, updated_after, unread) are checked
 * row by row on that walk: cheap when they match often, a longer walk when they match rarely.
 */
const listByActivityQ = prepared((db, a: Args & { afterAt?: string; afterId?: string }) => {
  let q = base(db, a)
  if (a.tagKey) q = q.where(tagged(a.tagKey) as never)
  if (a.afterAt && a.afterId) {
    q = q.where((eb) => eb(eb.refTuple('inbox_conversations.last_activity_at', 'inbox_conversations.id'), '<', eb.tuple(a.afterAt!, a.afterId!)))
  }
  return q.orderBy('inbox_conversations.last_activity_at', 'desc').orderBy('inbox_conversations.id', 'desc').limit(a.take)
})

/** Conversations by id (a search page's), with the member's mark when given. */
export function listConversationsByIds(db: Executor, tenant: Tenant, ids: string[], memberId: string | null): Promise<ListedConversation[]> {
  if (ids.length === 0) return Promise.resolve([])
  const a: Args = { workspaceId: tenant.workspaceId, mode: tenant.mode, take: ids.length, ...(memberId ? { memberId } : {}) }
  return base(db, a).where('inbox_conversations.id', 'in', ids).execute() as Promise<ListedConversation[]>
}

/**
 * Messages by id, with their conversations' ids: (conversation, id) pairs are exact lookups in the
 * conversation index. By id alone SQLite chose the tenant's created_at index for a list of 20 ids and read
 * every message of the workspace (200 ms at 50,000 conversations).
 */
export function messagesByIds(db: Executor, tenant: Tenant, conversationIds: string[], ids: string[]): Promise<InboxMessagesTable[]> {
  if (ids.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('inbox_messages').selectAll().where('conversation_id', 'in', conversationIds).where('id', 'in', ids).execute()
}

/** The newest conversation with a contact's external id on a channel that is not resolved (v1's "current chat"). */
export async function findOpenByContact(db: Executor, tenant: Tenant, externalId: string, channel: Channel): Promise<string | null> {
  const row = await scoped(db, tenant)
    .selectFrom('inbox_conversations')
    .select('id')
    .where('contact_external_id', '=', externalId)
    .where('channel', '=', channel)
    .where('status', '!=', 'resolved')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.id ?? null
}

/**
 * Conversation ids newest first from an offset (v1's offset pages). Only the id column is read, so the offset
 * is skipped in the (workspace, mode, id) index without touching rows; the caller bounds the offset.
 */
export async function conversationIdsAt(db: Executor, tenant: Tenant, offset: number, take: number): Promise<string[]> {
  const rows = await scoped(db, tenant).selectFrom('inbox_conversations').select('id').orderBy('id', 'desc').limit(take).offset(offset).execute()
  return rows.map((r) => r.id)
}
