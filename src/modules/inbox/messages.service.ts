import { iso } from '../../kernel/clock.js'
import { toJson, type Executor, type Tx } from '../../kernel/db/database.js'
import { notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import * as repo from './inbox.repository.js'
import type { MessageDeliveryT, MessageT, SendMessageBodyT } from './inbox.schemas.js'
import { applyInbound, buildMessage, conversationOr404 } from './inbox.shared.js'
import { messageView } from './inbox.views.js'

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
      fetch: async (page) => (await Promise.all([conversationOr404(this.k, this.k.db, tenant, id), repo.listMessages(this.k.db, tenant, id, { ...page, order })]))[1],
      key: (r) => r.id,
      view: messageView,
    })
  }

  /** The texts PII redaction works on: one message, or every message of a conversation (404 when not in the tenant). */
  async texts(tenant: Tenant, by: { messageId: string | null; conversationId: string | null }): Promise<{ message_id: string; original: string }[]> {
    if (by.messageId) {
      const m = await repo.findMessage(this.k.db, tenant, by.messageId)
      if (!m) throw notFound('message', by.messageId)
      return [{ message_id: m.id, original: m.content }]
    }
    await conversationOr404(this.k, this.k.db, tenant, by.conversationId!)
    return (await repo.allMessagesOf(this.k.db, tenant, by.conversationId!)).map((m) => ({ message_id: m.id, original: m.content }))
  }

  /** A message (null when not in the tenant, e.g. erased since). */
  async find(tenant: Tenant, id: string): Promise<MessageT | null> {
    const m = await repo.findMessage(this.k.db, tenant, id)
    return m ? messageView(m) : null
  }

  /**
   * The delivery state of an outbound message a channel sends, in the caller's transaction; with
   * message.updated unless `quiet` (the first state, written with the message itself).
   */
  async setDelivery(tx: Executor, tenant: Tenant, id: string, delivery: MessageDeliveryT, quiet = false): Promise<void> {
    const m = await repo.findMessage(tx, tenant, id)
    if (!m) return
    const stored = toJson(delivery)
    await repo.setMessageDelivery(tx, tenant, id, stored)
    if (!quiet) await this.k.events.emit(tx, tenant, 'message.updated', messageView({ ...m, delivery: stored }))
  }

  /** A message's text replaced in the caller's transaction (redaction applied), with message.updated. */
  async rewrite(tx: Tx, tenant: Tenant, id: string, content: string): Promise<void> {
    const m = await repo.findMessage(tx, tenant, id)
    if (!m) throw notFound('message', id)
    await repo.setMessageContent(tx, tenant, id, content)
    await this.k.events.emit(tx, tenant, 'message.updated', messageView({ ...m, content }))
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
      if (inbound) await applyInbound(this.k, tx, tenant, row, message)
      else await repo.touchConversation(tx, tenant, message)
      return view
    })
  }
}
