import { iso } from '../../kernel/clock.js'
import type { Executor } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import * as search from './inbox-search.repository.js'
import { isWellFormedId } from './inbox.input.js'
import { memberIdOf, memberOnly, unreadOf } from './inbox.member.js'
import * as repo from './inbox.repository.js'
import type { ConversationT, InboxCountsT, InboxSearchResultT } from './inbox.schemas.js'
import { queryWords, snippetOf } from './inbox.search-text.js'
import { conversationOr404 } from './inbox.shared.js'
import { assertTransition } from './inbox.status.js'
import type { InboxConversationsTable } from './inbox.tables.js'
import { conversationView, messageView } from './inbox.views.js'
import type { WakePayload } from './jobs/wake-conversation.job.js'

/** Counts stop here ("100+"): each reads at most this many index entries (docs/inbox.md "Read state and counts"). */
export const COUNT_CAP = 100
/** The furthest a snooze may reach. */
const MAX_SNOOZE_MS = 366 * 86400_000

/** The inbox as a working surface: per-member read state and counts, search, snooze. */
export class InboxWorkingService {
  constructor(
    private readonly k: Kernel,
    private readonly wakeJob: JobDefinition<WakePayload>,
  ) {}

  /** The view for the credential, reading the member's mark through `db` (a transaction's, inside one). */
  private async viewFor(db: Executor, tenant: Tenant, row: InboxConversationsTable): Promise<ConversationT> {
    const memberId = memberIdOf(tenant)
    if (!memberId) return conversationView(row)
    const mark = await repo.findReadMark(db, tenant, row.id, memberId)
    return conversationView(row, unreadOf(row.inbound_count, mark?.read_inbound_count ?? null))
  }

  /** The member's mark moves to `message_id` (default: the newest message); not an event (per member). */
  async markRead(principal: Principal, id: string, body: { message_id?: string }): Promise<ConversationT> {
    const memberId = memberIdOf(principal)
    const seen: { mark?: { conversation_id: string; message_id: string; read_at: string } } = {}
    const view = await this.k.transaction(principal, async (tx) => {
      // Another workspace's conversation is a 404 whatever the credential; then only a member has a mark.
      const row = await conversationOr404(this.k, tx, principal, id)
      if (!memberId) throw memberOnly('/header/authorization', 'markConversationRead')
      let upTo = row.last_message_id
      let count = row.inbound_count
      if (body.message_id !== undefined) {
        const m = isWellFormedId(body.message_id) ? await repo.findMessage(tx, principal, body.message_id) : undefined
        if (!m || m.conversation_id !== row.id) {
          throw new AppError('invalid_reference', `No message '${body.message_id}' in this conversation.`, {
            errors: [{ pointer: '/body/message_id', detail: 'not a message of this conversation' }],
          })
        }
        upTo = m.id
        count = await repo.inboundUpTo(tx, principal, row.id, m.id)
      }
      const now = iso(this.k.clock.now())
      await repo.upsertReadMark(tx, {
        workspace_id: principal.workspaceId,
        mode: principal.mode,
        conversation_id: row.id,
        member_id: memberId,
        last_read_message_id: upTo,
        read_inbound_count: count,
        last_read_at: now,
      })
      if (upTo) seen.mark = { conversation_id: row.id, message_id: upTo, read_at: now }
      return conversationView(row, unreadOf(row.inbound_count, count))
    })
    // Not an event (read state is per member), an ephemeral signal after the commit: a customer's chat widget
    // shows "seen" live from it (channels' web chat), and reads `readByTeam` when it (re)connects.
    if (seen.mark) this.k.feed.signal(principal, 'conversation.read', seen.mark)
    return view
  }

  /** How far the team has read a conversation: the furthest mark of any member (null: nobody has read it). */
  async readByTeam(tenant: Tenant, conversationId: string): Promise<{ message_id: string; read_at: string } | null> {
    const mark = await repo.furthestReadMark(this.k.db, tenant, conversationId)
    return mark?.last_read_message_id ? { message_id: mark.last_read_message_id, read_at: mark.last_read_at } : null
  }

  /** Open conversations: all, the member's, unassigned, unread, the member's unread; each capped at COUNT_CAP. */
  async counts(principal: Principal): Promise<InboxCountsT> {
    const memberId = memberIdOf(principal)
    if (!memberId) throw memberOnly('/header/authorization', 'getInboxCounts')
    const db = this.k.db
    const [open, mine, unassigned, unread, mineUnread] = await Promise.all([
      repo.countOpen(db, principal, {}, COUNT_CAP),
      repo.countOpen(db, principal, { assignee: memberId }, COUNT_CAP),
      repo.countOpen(db, principal, { assignee: null }, COUNT_CAP),
      repo.countOpen(db, principal, { unreadFor: memberId }, COUNT_CAP),
      repo.countOpen(db, principal, { assignee: memberId, unreadFor: memberId }, COUNT_CAP),
    ])
    return { object: 'inbox_counts', open, mine, unassigned, unread, mine_unread: mineUnread, capped_at: COUNT_CAP }
  }

  /** Matches newest first: one result per matching message, or per conversation whose subject or contact matches. */
  async search(principal: Principal, q: { q: string; cursor?: string; limit?: number }): Promise<PageResult<InboxSearchResultT>> {
    const words = queryWords(q.q)
    if (words.length === 0) {
      throw new AppError('validation_failed', '`q` has no word to search for (letters or digits).', {
        errors: [{ pointer: '/query/q', detail: 'needs a letter or a digit' }],
      })
    }
    const memberId = memberIdOf(principal)
    type Row = { hit: search.SearchHit; result: InboxSearchResultT }
    return this.k.paginate<Row, InboxSearchResultT>({
      list: 'searchInbox',
      tenant: principal,
      filters: { q: words.join(' ') },
      query: q,
      keyShape: /^[0-9]{1,19}$/,
      fetch: async (page) => {
        const hits = await search.searchDocs(this.k.db, principal, words, { before: page.after === null ? null : Number(page.after), take: page.limit + 1 })
        const convIds = [...new Set(hits.map((h) => h.conversation_id))]
        const msgIds = hits.map((h) => h.message_id).filter((m): m is string => m !== null)
        const [conversations, messages] = await Promise.all([repo.listConversationsByIds(this.k.db, principal, convIds, memberId), repo.messagesByIds(this.k.db, principal, convIds, msgIds)])
        const convById = new Map(conversations.map((c) => [c.id, c]))
        const msgById = new Map(messages.map((m) => [m.id, m]))
        const rows: Row[] = []
        for (const hit of hits) {
          const c = convById.get(hit.conversation_id)
          if (!c) continue
          const m = hit.message_id ? msgById.get(hit.message_id) : null
          if (m === undefined) continue
          rows.push({
            hit,
            result: {
              object: 'inbox_search_result',
              conversation: conversationView(c, memberId ? unreadOf(c.inbound_count, c.read_inbound_count) : null),
              message: m ? messageView(m) : null,
              snippet: snippetOf(hit.body, words),
            },
          })
        }
        return rows
      },
      key: (r) => String(r.hit.rid),
      view: (r) => r.result,
    })
  }

  /** Snoozed until `until`; a durable job wakes it then (if nothing woke it before). */
  async snooze(principal: Principal, id: string, until: string): Promise<ConversationT> {
    const now = this.k.clock.now()
    const t = Date.parse(until)
    if (Number.isNaN(t) || t <= now.getTime() || t > now.getTime() + MAX_SNOOZE_MS) {
      throw new AppError('validation_failed', '`until` must be a time in the future, at most a year ahead.', {
        errors: [{ pointer: '/body/until', detail: 'must be in the future, within a year' }],
      })
    }
    const at = iso(new Date(t))
    return this.k.transaction(principal, async (tx) => {
      const row = await conversationOr404(this.k, tx, principal, id, true)
      assertTransition(row.status, 'snoozed')
      const patch: Partial<InboxConversationsTable> = { status: 'snoozed', snoozed_until: at, updated_at: iso(now) }
      await repo.updateConversation(tx, principal, id, patch)
      await this.scheduleWake(tx, principal, id, at)
      const next = { ...row, ...patch }
      await this.k.events.emit(tx, principal, 'conversation.updated', conversationView(next))
      return this.viewFor(tx, principal, next)
    })
  }

  /** Enqueues the wake-up in the caller's transaction (also for updateConversation with status snoozed). */
  async scheduleWake(tx: Executor, tenant: Tenant, conversationId: string, until: string): Promise<void> {
    await enqueue(tx, this.k.clock, this.wakeJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: conversationId, until }, { runAt: new Date(until) })
  }
}
