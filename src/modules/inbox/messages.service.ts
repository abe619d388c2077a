import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../kernel/db/database.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { detectTopics } from './inbox.lead-score.js'
import * as repo from './inbox.repository.js'
import type { MessageT, SendMessageBodyT } from './inbox.schemas.js'
import { autoLead, buildMessage, conversationOr404 } from './inbox.shared.js'
import type { InboxConversationsTable, InboxMessagesTable } from './inbox.tables.js'
import { conversationView, messageView } from './inbox.views.js'

/** Messages and private notes of a conversation: list, send (an inbound one also moves the conversation). */
export class MessagesService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  async list(tenant: Tenant, id: string, q: { cursor?: string; limit?: number; order?: 'asc' | 'desc' }): Promise<PageResult<MessageT>> {
    const order = q.order ?? 'desc'
    return this.k.paginate({
      list: 'listMessages',
      tenant,
      filters: { conversation: id, order },
      query: q,
      // The conversation check and the page are read together; a missing conversation is a 404, not [].
      fetch: async (page) =>
        (await Promise.all([conversationOr404(this.k, this.k.db, tenant, id), repo.listMessages(this.k.db, tenant, id, { ...page, order })]))[1],
      key: (r) => r.id,
      view: messageView,
    })
  }

  /**
   * One transaction: the message, its event, and the conversation's new state. An inbound message is a
   * read-modify-write (lead score, inbound count; it reopens a resolved conversation and wakes a snoozed
   * one), so it locks the conversation row. An outbound message or note only moves last_message_at
   * forward with one guarded UPDATE, so replies to a busy conversation do not queue behind a row lock.
   */
  async send(principal: Principal, id: string, body: SendMessageBodyT): Promise<MessageT> {
    const tenant: Tenant = principal
    const message = await buildMessage(this.services, principal, id, body, iso(this.k.clock.now()), '/body')
    const view = messageView(message)
    const inbound = message.direction === 'inbound'
    return this.k.transaction(principal, async (tx) => {
      const row = await conversationOr404(this.k, tx, tenant, id, inbound)
      await repo.insertMessage(tx, message)
      await this.k.events.emit(tx, tenant, 'message.created', view)
      if (inbound) await this.afterInbound(tx, tenant, row, message)
      else await repo.touchConversation(tx, tenant, id, message.created_at)
      return view
    })
  }

  private async afterInbound(tx: Tx, tenant: Tenant, row: InboxConversationsTable, message: InboxMessagesTable): Promise<void> {
    const seen = new Set([...fromJson<string[]>(row.lead_signals, []), ...detectTopics(message.content)])
    const patch: Partial<InboxConversationsTable> = {
      last_message_at: message.created_at,
      updated_at: message.created_at,
      inbound_count: row.inbound_count + 1,
      lead_signals: toJson([...seen]),
    }
    if (row.status === 'resolved' || row.status === 'snoozed') Object.assign(patch, { status: 'open', resolved_at: null, snoozed_until: null })
    const next = { ...row, ...patch }
    if (next.lead_score_manual === 0) Object.assign(next, autoLead(next))
    await repo.updateConversation(tx, tenant, row.id, { ...patch, lead_score: next.lead_score, lead_factors: next.lead_factors })
    if (row.status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.reopened', conversationView(next))
    else if (row.status === 'snoozed') await this.k.events.emit(tx, tenant, 'conversation.updated', conversationView(next))
  }
}
