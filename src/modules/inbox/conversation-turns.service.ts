import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { activityOf } from './inbox.activity.js'
import * as repo from './inbox.repository.js'
import { applyInbound, assertActiveMember, conversationOr404, newConversationRow, resolveTags, type ContactInput } from './inbox.shared.js'
import type { Channel, InboxConversationsTable, InboxMessagesTable, InboxTagsTable } from './inbox.tables.js'
import { conversationView, messageView } from './inbox.views.js'

/** A turn of the conversation for an AI engine, oldest first. */
export interface Turn {
  id: string
  role: 'customer' | 'agent'
  text: string
}

export interface ExchangeInput {
  /** Continue this conversation, or start one on `channel` with `contact`. */
  conversationId: string | null
  channel: Channel
  contact?: ContactInput
  inbound: string
  outbound: { content: string; author: { type: 'bot'; id: string } }
  handoff: { assigneeId: string | null; tag: string | null } | null
}

export interface PreparedExchange {
  input: ExchangeInput
  tag: InboxTagsTable | null
  conversationId: string
  inbound: InboxMessagesTable
  outbound: InboxMessagesTable
}

/**
 * Exchanges written by other modules that converse with contacts (bots now; voice and agents later): the
 * contact's message and the answer, in the caller's transaction, with the same effects as the inbox's own
 * operations (lead score, reopening, events) and an optional hand-off (assignment and/or tag).
 */
export class ConversationTurnsService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /** The conversation (404 when not in the tenant) and its latest public messages, oldest first. */
  async context(tenant: Tenant, conversationId: string, turns = 10): Promise<{ id: string; channel: Channel; transcript: Turn[] }> {
    const row = await conversationOr404(this.k, this.k.db, tenant, conversationId)
    const messages = await repo.recentMessages(this.k.db, tenant, conversationId, turns)
    return {
      id: row.id,
      channel: row.channel,
      transcript: messages.map((m) => ({ id: m.id, role: m.direction === 'inbound' ? 'customer' : 'agent', text: m.content })),
    }
  }

  /** A hand-off target named in a bot's settings: an active member and an existing tag (else 422 at `pointer`). */
  async checkHandoffTarget(tenant: Tenant, target: { assigneeId: string | null; tag: string | null }, pointer: string): Promise<void> {
    if (target.assigneeId) await assertActiveMember(this.services, tenant, target.assigneeId, `${pointer}/assignee_id`)
    if (target.tag) await this.tagOr422(tenant, target.tag, `${pointer}/tag`)
  }

  /** Reads and rows, before the caller's transaction (SQLite has one connection, held by the transaction). */
  async prepare(tenant: Tenant, input: ExchangeInput): Promise<PreparedExchange> {
    const tag = input.handoff?.tag ? await this.tagOr422(tenant, input.handoff.tag, '/handoff/tag') : null
    const conversationId = input.conversationId ?? newId('conv')
    const now = this.k.clock.now()
    // The reply is a millisecond later: message order (by id and time) is question, then answer.
    const message = (direction: 'inbound' | 'outbound', content: string, author: { type: 'contact' | 'bot'; id: string | null }, at: Date): InboxMessagesTable => ({
      id: newId('msg'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      conversation_id: conversationId,
      direction,
      author_type: author.type,
      author_id: author.id,
      content,
      private: 0,
      attachments: '[]',
      created_at: iso(at),
    })
    const inbound = message('inbound', input.inbound, { type: 'contact', id: null }, now)
    const outbound = message('outbound', input.outbound.content, input.outbound.author, new Date(now.getTime() + 1))
    return { input, tag, conversationId, inbound, outbound }
  }

  /** Writes the exchange in `tx`: the conversation (new or locked), both messages, the hand-off, the events. */
  async write(tx: Tx, tenant: Tenant, p: PreparedExchange): Promise<{ conversationId: string }> {
    const fresh = p.input.conversationId === null
    let row: InboxConversationsTable
    if (fresh) row = newConversationRow(tenant, p.conversationId, { channel: p.input.channel, contact: p.input.contact, tags: [] }, p.inbound, p.inbound.created_at)
    else {
      const current = await conversationOr404(this.k, tx, tenant, p.conversationId, true)
      await repo.insertMessage(tx, p.inbound)
      await this.k.events.emit(tx, tenant, 'message.created', messageView(p.inbound))
      row = await applyInbound(this.k, tx, tenant, current, p.inbound)
    }
    const patch: Partial<InboxConversationsTable> = { ...activityOf(p.outbound), updated_at: p.outbound.created_at }
    const handoff = p.input.handoff
    const assign = handoff?.assigneeId && row.assignee_id !== handoff.assigneeId ? handoff.assigneeId : null
    if (assign) patch.assignee_id = assign
    const tags = fromJson<string[]>(row.tags, [])
    const addTag = p.tag && !tags.some((t) => t.toLowerCase() === p.tag!.name_key) ? p.tag : null
    if (addTag) patch.tags = toJson([...tags, addTag.name])
    if (fresh) {
      // A new conversation is inserted as the exchange leaves it (one statement less than insert then
      // update); its created event still shows it as the customer's message left it, as before.
      await repo.insertConversation(tx, { ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'conversation.created', conversationView(row))
      await repo.insertMessage(tx, p.inbound)
      await this.k.events.emit(tx, tenant, 'message.created', messageView(p.inbound))
    }
    await repo.insertMessage(tx, p.outbound)
    await this.k.events.emit(tx, tenant, 'message.created', messageView(p.outbound))
    if (addTag) await repo.addConversationTags(tx, tenant, row.id, [addTag])
    if (!fresh) await repo.updateConversation(tx, tenant, row.id, patch)
    const next = { ...row, ...patch }
    if (assign) await this.k.events.emit(tx, tenant, 'conversation.assigned', conversationView(next))
    if (addTag) await this.k.events.emit(tx, tenant, 'conversation.updated', conversationView(next))
    return { conversationId: row.id }
  }

  /**
   * A message to the contact from an automation (an agent run's output), in the caller's transaction: 404
   * when the conversation is gone. It moves the conversation's last_message_at like any outbound message.
   */
  async post(tx: Tx, tenant: Tenant, conversationId: string, content: string, author: { type: 'agent' | 'bot'; id: string }): Promise<{ messageId: string }> {
    await conversationOr404(this.k, tx, tenant, conversationId)
    const message: InboxMessagesTable = {
      id: newId('msg'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      conversation_id: conversationId,
      direction: 'outbound',
      author_type: author.type,
      author_id: author.id,
      content,
      private: 0,
      attachments: '[]',
      created_at: iso(this.k.clock.now()),
    }
    await repo.insertMessage(tx, message)
    await this.k.events.emit(tx, tenant, 'message.created', messageView(message))
    await repo.touchConversation(tx, tenant, message)
    return { messageId: message.id }
  }

  /**
   * A conversation for an exchange that happens elsewhere first (a phone call), opened in the caller's
   * transaction with no message yet; its lines arrive later through `record`.
   */
  async open(tx: Tx, tenant: Tenant, input: { channel: Channel; contact?: ContactInput; subject?: string | null; metadata?: Record<string, string> }): Promise<{ conversationId: string }> {
    const now = iso(this.k.clock.now())
    const row = newConversationRow(tenant, newId('conv'), { channel: input.channel, contact: input.contact, subject: input.subject ?? null, tags: [], metadata: input.metadata }, null, now)
    await repo.insertConversation(tx, row)
    await this.k.events.emit(tx, tenant, 'conversation.created', conversationView(row))
    return { conversationId: row.id }
  }

  /**
   * Lines of an exchange that already happened (a call's transcript), appended in order in the caller's
   * transaction: the contact's lines inbound, with the inbox's effects (lead score, reopening, events);
   * the others outbound. 404 when the conversation is gone.
   */
  async record(
    tx: Tx,
    tenant: Tenant,
    conversationId: string,
    lines: { direction: 'inbound' | 'outbound'; content: string; author: { type: 'contact' | 'bot' | 'agent' | 'member'; id: string | null }; at: string }[],
  ): Promise<{ messageIds: string[] }> {
    let row = await conversationOr404(this.k, tx, tenant, conversationId, true)
    const ids: string[] = []
    for (const line of lines) {
      const message: InboxMessagesTable = {
        id: newId('msg'),
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        conversation_id: conversationId,
        direction: line.direction,
        author_type: line.author.type,
        author_id: line.author.id,
        content: line.content,
        private: 0,
        attachments: '[]',
        created_at: line.at,
      }
      await repo.insertMessage(tx, message)
      await this.k.events.emit(tx, tenant, 'message.created', messageView(message))
      if (line.direction === 'inbound') row = await applyInbound(this.k, tx, tenant, row, message)
      else await repo.touchConversation(tx, tenant, message)
      ids.push(message.id)
    }
    return { messageIds: ids }
  }

  /**
   * A contact's message arriving through a channel (SMS, WhatsApp), in the caller's transaction: appended to
   * `continueId` while that conversation exists and is not resolved (a snoozed or pending one wakes, as any
   * inbound message does), else written as the first message of a new conversation on `channel` with
   * `contact` — a resolved conversation stays closed and the contact's next message starts a new one.
   */
  async receive(
    tx: Tx,
    tenant: Tenant,
    input: {
      continueId: string | null
      channel: Channel
      contact: ContactInput
      content: string
      attachments: { url: string; filename: string | null; content_type: string | null; size_bytes: number | null }[]
      metadata?: Record<string, string>
      subject?: string | null
    },
  ): Promise<{ conversationId: string; messageId: string; started: boolean }> {
    const now = iso(this.k.clock.now())
    const current = input.continueId ? await repo.findConversation(tx, tenant, input.continueId, { forUpdate: this.k.database.engine === 'postgres' }) : undefined
    const continuing = current && current.status !== 'resolved' ? current : null
    const message: InboxMessagesTable = {
      id: newId('msg'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      conversation_id: continuing?.id ?? newId('conv'),
      direction: 'inbound',
      author_type: 'contact',
      author_id: null,
      content: input.content,
      private: 0,
      attachments: toJson(input.attachments),
      created_at: now,
    }
    if (continuing) {
      await repo.insertMessage(tx, message)
      await this.k.events.emit(tx, tenant, 'message.created', messageView(message))
      await applyInbound(this.k, tx, tenant, continuing, message)
      return { conversationId: continuing.id, messageId: message.id, started: false }
    }
    const row = newConversationRow(
      tenant,
      message.conversation_id,
      { channel: input.channel, contact: input.contact, subject: input.subject ?? null, tags: [], metadata: input.metadata },
      message,
      now,
    )
    await repo.insertConversation(tx, row)
    await this.k.events.emit(tx, tenant, 'conversation.created', conversationView(row))
    await repo.insertMessage(tx, message)
    await this.k.events.emit(tx, tenant, 'message.created', messageView(message))
    return { conversationId: row.id, messageId: message.id, started: true }
  }

  private async tagOr422(tenant: Tenant, name: string, pointer: string): Promise<InboxTagsTable> {
    try {
      return (await resolveTags(this.k, tenant, [name]))[0]
    } catch (err) {
      if (err instanceof AppError && err.code === 'unknown_tag') {
        throw new AppError('unknown_tag', `No inbox tag named '${name}'; create it with POST /inbox/tags first.`, { errors: [{ pointer, detail: 'no such tag' }] })
      }
      throw err
    }
  }
}
