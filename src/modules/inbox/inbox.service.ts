import { createAiEngine, placeholdersOf, type AiEngine, type AiTurn } from '../../kernel/ai/ai.js'
import { iso } from '../../kernel/clock.js'
import { fromJson, isUniqueViolation, toJson, type Executor, type Tx } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { detectTopics, manualLeadScore, scoreLead } from './inbox.lead-score.js'
import * as repo from './inbox.repository.js'
import {
  TEMPLATE_PLACEHOLDERS,
  type AiDraftT,
  type ConversationT,
  type CreateConversationBodyT,
  type CreateReplyTemplateBodyT,
  type InboxTagT,
  type LeadScoreT,
  type ListConversationsQueryT,
  type MessageT,
  type ReplyTemplateT,
  type SendMessageBodyT,
  type UpdateConversationBodyT,
} from './inbox.schemas.js'
import { isWellFormedId } from './inbox.input.js'
import { assertTransition } from './inbox.status.js'
import type {
  ConversationStatus,
  InboxAiDraftsTable,
  InboxConversationsTable,
  InboxMessagesTable,
  InboxReplyTemplatesTable,
  InboxTagsTable,
} from './inbox.tables.js'

/** Messages a draft reads (the latest, oldest first) and templates it ranks: bounded for latency. */
const DRAFT_CONTEXT_MESSAGES = 10
const DRAFT_MAX_TEMPLATES = 500

type ContactInput = NonNullable<CreateConversationBodyT['contact']>

export class InboxService {
  readonly ai: AiEngine

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    this.ai = createAiEngine(k.config.ai, k.log)
  }

  /** Row locks only where they exist; SQLite serialises writers by itself. */
  private get lock(): boolean {
    return this.k.database.engine === 'postgres'
  }

  // ---------------------------------------------------------------- views

  conversationView(row: InboxConversationsTable): ConversationT {
    return {
      id: row.id,
      object: 'conversation',
      status: row.status,
      channel: row.channel,
      subject: row.subject,
      contact: { name: row.contact_name, email: row.contact_email, phone: row.contact_phone, external_id: row.contact_external_id },
      assignee_id: row.assignee_id,
      tags: fromJson<string[]>(row.tags, []),
      lead_score: { score: Number(row.lead_score), factors: fromJson<string[]>(row.lead_factors, []) },
      metadata: fromJson(row.metadata, {}),
      last_message_at: row.last_message_at,
      snoozed_until: row.snoozed_until,
      resolved_at: row.resolved_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }
  }

  private messageView(row: InboxMessagesTable): MessageT {
    return {
      id: row.id,
      object: 'message',
      conversation_id: row.conversation_id,
      direction: row.direction,
      author: { type: row.author_type, id: row.author_id },
      content: row.content,
      private: row.private === 1,
      attachments: fromJson(row.attachments, []),
      created_at: row.created_at,
    }
  }

  private draftView(row: InboxAiDraftsTable): AiDraftT {
    return {
      id: row.id,
      object: 'ai_draft',
      conversation_id: row.conversation_id,
      content: row.content,
      confidence: row.confidence === null ? null : Number(row.confidence),
      grounded: row.grounded === 1,
      sources: fromJson(row.sources, []),
      provider: row.provider,
      model: row.model,
      created_at: row.created_at,
    }
  }

  private templateView(row: InboxReplyTemplatesTable): ReplyTemplateT {
    return {
      id: row.id,
      object: 'reply_template',
      name: row.name,
      content: row.content,
      placeholders: placeholdersOf(row.content),
      shortcut: row.shortcut,
      language: row.language,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }
  }

  private tagView(row: InboxTagsTable): InboxTagT {
    return { id: row.id, object: 'inbox_tag', name: row.name, color: row.color, created_at: row.created_at }
  }

  // ---------------------------------------------------------------- conversations

  async listConversations(tenant: Tenant, q: ListConversationsQueryT): Promise<PageResult<ConversationT>> {
    let updatedAfter: string | undefined
    if (q.updated_after !== undefined) {
      const t = Date.parse(q.updated_after)
      if (Number.isNaN(t)) {
        throw new AppError('validation_failed', '`updated_after` is not a valid timestamp.', {
          errors: [{ pointer: '/query/updated_after', detail: 'must be an RFC 3339 date-time' }],
        })
      }
      updatedAfter = iso(new Date(t))
    }
    const filters: repo.ConversationFilters = {
      status: q.status,
      assignee: q.assignee === undefined ? undefined : q.assignee === 'unassigned' ? null : q.assignee,
      tagKey: q.tag?.toLowerCase(),
      channel: q.channel,
      updatedAfter,
    }
    return this.k.paginate({
      list: 'listConversations',
      tenant,
      filters: { status: q.status, assignee: q.assignee, tag: filters.tagKey, channel: q.channel, updated_after: updatedAfter },
      query: q,
      fetch: (page) => repo.listConversations(this.k.db, tenant, filters, page),
      key: (r) => r.id,
      view: (r) => this.conversationView(r),
    })
  }

  async getConversation(tenant: Tenant, id: string): Promise<ConversationT> {
    return this.conversationView(await this.conversationOr404(this.k.db, tenant, id))
  }

  async createConversation(principal: Principal, body: CreateConversationBodyT): Promise<ConversationT> {
    const tenant: Tenant = principal
    // Reads on the pool happen before the transaction: SQLite has one connection, held by the transaction.
    const tags = body.tags ? await this.resolveTags(tenant, body.tags) : []
    if (body.assignee_id) await this.assertActiveMember(tenant, body.assignee_id, '/body/assignee_id')
    const id = newId('conv')
    const now = iso(this.k.clock.now())
    const message = body.message ? await this.buildMessage(principal, id, body.message, now, '/body/message') : null
    const contact = normaliseContact(body.contact ?? {})
    const inbound = message?.direction === 'inbound'
    const signals = inbound ? detectTopics(message.content) : []
    const lead = scoreLead({ hasEmail: !!contact.email, hasPhone: !!contact.phone, inboundCount: inbound ? 1 : 0, topics: signals })
    const row: InboxConversationsTable = {
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      status: body.status ?? 'open',
      channel: body.channel ?? 'api',
      subject: body.subject ?? null,
      contact_name: contact.name ?? null,
      contact_email: contact.email ?? null,
      contact_phone: contact.phone ?? null,
      contact_external_id: contact.external_id ?? null,
      assignee_id: body.assignee_id ?? null,
      tags: toJson(tags.map((t) => t.name)),
      lead_score: lead.score,
      lead_factors: toJson(lead.factors),
      lead_score_manual: 0,
      lead_signals: toJson(signals),
      inbound_count: inbound ? 1 : 0,
      metadata: toJson(body.metadata ?? {}),
      last_message_at: message ? now : null,
      snoozed_until: null,
      resolved_at: null,
      created_at: now,
      updated_at: now,
    }
    const view = this.conversationView(row)
    return this.k.transaction(async (tx) => {
      await repo.insertConversation(tx, row)
      await repo.addConversationTags(tx, tenant, id, tags)
      await this.k.events.emit(tx, tenant, 'conversation.created', view)
      if (message) {
        await repo.insertMessage(tx, message)
        await this.k.events.emit(tx, tenant, 'message.created', this.messageView(message))
      }
      return view
    })
  }

  async updateConversation(tenant: Tenant, id: string, body: UpdateConversationBodyT): Promise<ConversationT> {
    const tags = body.tags ? await this.resolveTags(tenant, body.tags) : null
    const now = this.k.clock.now()
    if (body.snoozed_until) {
      const t = Date.parse(body.snoozed_until)
      if (Number.isNaN(t) || t <= now.getTime()) {
        throw new AppError('validation_failed', '`snoozed_until` must be a timestamp in the future.', {
          errors: [{ pointer: '/body/snoozed_until', detail: 'must be in the future' }],
        })
      }
    }
    return this.k.transaction(async (tx) => {
      const row = await this.conversationOr404(tx, tenant, id, true)
      const status: ConversationStatus = body.status ?? row.status
      assertTransition(row.status, status)
      if (body.snoozed_until && status !== 'snoozed') {
        throw new AppError('validation_failed', '`snoozed_until` applies only to a snoozed conversation; send status snoozed with it.', {
          errors: [{ pointer: '/body/snoozed_until', detail: 'only with status snoozed' }],
        })
      }
      const patch: Partial<InboxConversationsTable> = { updated_at: iso(now) }
      if (status !== row.status) {
        patch.status = status
        if (status === 'resolved') patch.resolved_at = iso(now)
        if (row.status === 'resolved') patch.resolved_at = null
        if (status !== 'snoozed') patch.snoozed_until = null
      }
      if (body.snoozed_until !== undefined && status === 'snoozed') patch.snoozed_until = body.snoozed_until ? iso(new Date(body.snoozed_until)) : null
      if (body.subject !== undefined) patch.subject = body.subject
      if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
      if (body.contact !== undefined) {
        const c = normaliseContact(body.contact)
        if (c.name !== undefined) patch.contact_name = c.name
        if (c.email !== undefined) patch.contact_email = c.email
        if (c.phone !== undefined) patch.contact_phone = c.phone
        if (c.external_id !== undefined) patch.contact_external_id = c.external_id
      }
      if (tags) {
        patch.tags = toJson(tags.map((t) => t.name))
        await repo.replaceConversationTags(tx, tenant, id, tags)
      }
      if (body.lead_score !== undefined) {
        if (body.lead_score === null) patch.lead_score_manual = 0
        else {
          const manual = manualLeadScore(body.lead_score)
          Object.assign(patch, { lead_score_manual: 1, lead_score: manual.score, lead_factors: toJson(manual.factors) })
        }
      }
      const next = { ...row, ...patch }
      if (next.lead_score_manual === 0) Object.assign(next, this.autoLead(next))
      await repo.updateConversation(tx, tenant, id, { ...patch, lead_score: next.lead_score, lead_factors: next.lead_factors })
      const view = this.conversationView(next)
      await this.k.events.emit(tx, tenant, 'conversation.updated', view)
      if (status !== row.status && status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.resolved', view)
      if (status !== row.status && row.status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.reopened', view)
      return view
    })
  }

  async assignConversation(tenant: Tenant, id: string, assigneeId: string | null): Promise<ConversationT> {
    if (assigneeId !== null) await this.assertActiveMember(tenant, assigneeId, '/body/assignee_id')
    return this.k.transaction(async (tx) => {
      const row = await this.conversationOr404(tx, tenant, id, true)
      // Assigning to the current assignee changes nothing and emits nothing.
      if (row.assignee_id === assigneeId) return this.conversationView(row)
      const patch = { assignee_id: assigneeId, updated_at: iso(this.k.clock.now()) }
      await repo.updateConversation(tx, tenant, id, patch)
      const view = this.conversationView({ ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'conversation.assigned', view)
      return view
    })
  }

  /** Resolving a resolved conversation returns it unchanged (resolved_at of the first time, no event). */
  async resolveConversation(tenant: Tenant, id: string): Promise<ConversationT> {
    return this.k.transaction(async (tx) => {
      const row = await this.conversationOr404(tx, tenant, id, true)
      if (row.status === 'resolved') return this.conversationView(row)
      const now = iso(this.k.clock.now())
      const patch = { status: 'resolved' as const, resolved_at: now, snoozed_until: null, updated_at: now }
      await repo.updateConversation(tx, tenant, id, patch)
      const view = this.conversationView({ ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'conversation.resolved', view)
      return view
    })
  }

  // ---------------------------------------------------------------- messages

  async listMessages(tenant: Tenant, id: string, q: { cursor?: string; limit?: number; order?: 'asc' | 'desc' }): Promise<PageResult<MessageT>> {
    const order = q.order ?? 'desc'
    return this.k.paginate({
      list: 'listMessages',
      tenant,
      filters: { conversation: id, order },
      query: q,
      // The conversation check and the page are read together; a missing conversation is a 404, not [].
      fetch: async (page) =>
        (await Promise.all([this.conversationOr404(this.k.db, tenant, id), repo.listMessages(this.k.db, tenant, id, { ...page, order })]))[1],
      key: (r) => r.id,
      view: (r) => this.messageView(r),
    })
  }

  /**
   * One transaction: the message, its event, and the conversation's new state. An inbound message is a
   * read-modify-write (lead score, inbound count; it reopens a resolved conversation and wakes a snoozed
   * one), so it locks the conversation row. An outbound message or note only moves last_message_at
   * forward with one guarded UPDATE, so replies to a busy conversation do not queue behind a row lock.
   */
  async sendMessage(principal: Principal, id: string, body: SendMessageBodyT): Promise<MessageT> {
    const tenant: Tenant = principal
    const message = await this.buildMessage(principal, id, body, iso(this.k.clock.now()), '/body')
    const view = this.messageView(message)
    const inbound = message.direction === 'inbound'
    return this.k.transaction(async (tx) => {
      const row = await this.conversationOr404(tx, tenant, id, inbound)
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
    if (next.lead_score_manual === 0) Object.assign(next, this.autoLead(next))
    await repo.updateConversation(tx, tenant, row.id, { ...patch, lead_score: next.lead_score, lead_factors: next.lead_factors })
    if (row.status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.reopened', this.conversationView(next))
    else if (row.status === 'snoozed') await this.k.events.emit(tx, tenant, 'conversation.updated', this.conversationView(next))
  }

  /** Validate direction, author and note flag; build the row (nothing is written). */
  private async buildMessage(principal: Principal, conversationId: string, body: SendMessageBodyT, now: string, pointer: string): Promise<InboxMessagesTable> {
    const direction = body.direction ?? 'outbound'
    const isPrivate = body.private ?? false
    const author = body.author ?? (direction === 'inbound' ? { type: 'contact' as const } : { type: 'api_key' as const })
    const bad = (detail: string, field: string) =>
      new AppError('invalid_message_author', detail, { errors: [{ pointer: `${pointer}/${field}`, detail }] })
    if (direction === 'inbound' && author.type !== 'contact') throw bad('An inbound message comes from the contact; author.type must be contact.', 'author/type')
    if (direction === 'outbound' && author.type === 'contact') throw bad('An outbound message goes to the contact; its author is a member, a bot or the API key.', 'author/type')
    if (isPrivate && direction === 'inbound') throw bad('A private note is written by the team: it must be outbound.', 'private')
    let authorId: string | null = null
    if (author.type === 'member') {
      if (!author.id) throw bad('A member author needs author.id (mem_…).', 'author/id')
      await this.assertActiveMember(principal, author.id, `${pointer}/author/id`)
      authorId = author.id
    } else if (author.type === 'bot') {
      if (!author.id) throw bad('A bot author needs author.id.', 'author/id')
      authorId = author.id
    } else if (author.type === 'api_key') {
      authorId = principal.keyId
    }
    return {
      id: newId('msg'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      conversation_id: conversationId,
      direction,
      author_type: author.type,
      author_id: authorId,
      content: body.content,
      private: isPrivate ? 1 : 0,
      attachments: toJson(
        (body.attachments ?? []).map((a) => ({ url: a.url, filename: a.filename ?? null, content_type: a.content_type ?? null, size_bytes: a.size_bytes ?? null })),
      ),
      created_at: now,
    }
  }

  // ---------------------------------------------------------------- AI drafts

  /** The engine runs outside the transaction (no lock held across a network call); only the insert is inside. */
  async createAiDraft(tenant: Tenant, id: string, body: { instructions?: string }): Promise<AiDraftT> {
    const conv = await this.conversationOr404(this.k.db, tenant, id)
    const [messages, templates] = await Promise.all([
      repo.recentMessages(this.k.db, tenant, id, DRAFT_CONTEXT_MESSAGES),
      repo.listTemplates(this.k.db, tenant, { after: null, limit: DRAFT_MAX_TEMPLATES - 1 }),
    ])
    const transcript: AiTurn[] = messages.map((m) => ({ role: m.direction === 'inbound' ? 'customer' : 'agent', text: m.content, id: m.id }))
    const gen = await this.ai.generate({
      task: 'Draft the next reply of a support agent to the customer in this conversation.',
      transcript,
      sources: templates.map((t) => ({ kind: 'template', id: t.id, title: t.name, text: t.content })),
      variables: {
        'contact.name': conv.contact_name,
        'contact.email': conv.contact_email,
        'contact.phone': conv.contact_phone,
        'conversation.subject': conv.subject,
      },
      instructions: body.instructions ?? null,
    })
    const row: InboxAiDraftsTable = {
      id: newId('drf'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      conversation_id: id,
      content: gen.content,
      confidence: gen.confidence,
      grounded: gen.grounded ? 1 : 0,
      sources: toJson(gen.sources),
      provider: gen.provider,
      model: gen.model,
      created_at: iso(this.k.clock.now()),
    }
    const view = this.draftView(row)
    return this.k.transaction(async (tx) => {
      await repo.insertDraft(tx, row)
      await this.k.events.emit(tx, tenant, 'ai_draft.created', view)
      return view
    })
  }

  // ---------------------------------------------------------------- templates and tags

  async listReplyTemplates(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<ReplyTemplateT>> {
    return this.k.paginate({
      list: 'listReplyTemplates',
      tenant,
      query: q,
      fetch: (page) => repo.listTemplates(this.k.db, tenant, page),
      key: (r) => r.id,
      view: (r) => this.templateView(r),
    })
  }

  async createReplyTemplate(tenant: Tenant, body: CreateReplyTemplateBodyT): Promise<ReplyTemplateT> {
    const unknown = placeholdersOf(body.content).filter((p) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(p))
    if (unknown.length > 0) {
      throw new AppError('validation_failed', `Unknown placeholder ${unknown.map((p) => `{{${p}}}`).join(', ')}; use ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`, {
        errors: [{ pointer: '/body/content', detail: `unknown placeholder: ${unknown.join(', ')}` }],
      })
    }
    const now = iso(this.k.clock.now())
    const row: InboxReplyTemplatesTable = {
      id: newId('tpl'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      name_key: body.name.toLowerCase(),
      content: body.content,
      shortcut: body.shortcut ?? null,
      language: body.language ?? null,
      created_at: now,
      updated_at: now,
    }
    try {
      return await this.k.transaction(async (tx) => {
        await repo.insertTemplate(tx, row)
        return this.templateView(row)
      })
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      const onShortcut = /shortcut/.test(`${(err as Error).message} ${(err as { constraint?: string }).constraint ?? ''}`)
      throw new AppError(
        'template_already_exists',
        onShortcut ? `A reply template with the shortcut '${body.shortcut}' already exists.` : `A reply template named '${body.name}' already exists.`,
        { errors: [{ pointer: onShortcut ? '/body/shortcut' : '/body/name', detail: 'already used in this workspace' }] },
      )
    }
  }

  async listInboxTags(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<InboxTagT>> {
    return this.k.paginate({
      list: 'listInboxTags',
      tenant,
      query: q,
      fetch: (page) => repo.listTags(this.k.db, tenant, page),
      key: (r) => r.id,
      view: (r) => this.tagView(r),
    })
  }

  async createInboxTag(tenant: Tenant, body: { name: string; color?: string }): Promise<InboxTagT> {
    const row: InboxTagsTable = {
      id: newId('tag'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      name_key: body.name.toLowerCase(),
      color: (body.color ?? '#6b7280').toLowerCase(),
      created_at: iso(this.k.clock.now()),
    }
    try {
      return await this.k.transaction(async (tx) => {
        await repo.insertTag(tx, row)
        return this.tagView(row)
      })
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
      throw new AppError('tag_already_exists', `A tag named '${body.name}' already exists (names are case-insensitive).`, {
        errors: [{ pointer: '/body/name', detail: 'already used in this workspace' }],
      })
    }
  }

  // ---------------------------------------------------------------- module hooks

  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    const ai = this.ai.check()
    return { status: ai.status, ...(ai.detail ? { detail: ai.detail } : {}), ai_provider: this.ai.provider, ai_model: this.ai.model }
  }

  // ---------------------------------------------------------------- helpers

  private async conversationOr404(db: Executor, tenant: Tenant, id: string, forUpdate = false): Promise<InboxConversationsTable> {
    const row = isWellFormedId(id) ? await repo.findConversation(db, tenant, id, { forUpdate: forUpdate && this.lock }) : undefined
    if (!row) throw notFound('conversation', id)
    return row
  }

  private autoLead(row: InboxConversationsTable): { lead_score: number; lead_factors: string } {
    const lead: LeadScoreT = scoreLead({
      hasEmail: !!row.contact_email,
      hasPhone: !!row.contact_phone,
      inboundCount: row.inbound_count,
      topics: fromJson<string[]>(row.lead_signals, []),
    })
    return { lead_score: lead.score, lead_factors: toJson(lead.factors) }
  }

  /** Tag names → the workspace's tags (case-insensitive, de-duplicated); any unknown name → 422. */
  private async resolveTags(tenant: Tenant, names: string[]): Promise<InboxTagsTable[]> {
    const keys = [...new Set(names.map((n) => n.toLowerCase()))]
    const found = await repo.findTagsByKeys(this.k.db, tenant, keys)
    const byKey = new Map(found.map((t) => [t.name_key, t]))
    const missing = names.map((n, i) => ({ n, i })).filter(({ n }) => !byKey.has(n.toLowerCase()))
    if (missing.length > 0) {
      throw new AppError('unknown_tag', `No tag named ${missing.map((m) => `'${m.n}'`).join(', ')}; create it with POST /inbox/tags first.`, {
        errors: missing.map((m) => ({ pointer: `/body/tags/${m.i}`, detail: 'no such tag' })),
      })
    }
    return keys.map((k) => byKey.get(k)!)
  }

  private async assertActiveMember(tenant: Tenant, memberId: string, pointer: string): Promise<void> {
    const member = isWellFormedId(memberId) ? await this.services.workspaces.getMember(tenant, memberId) : null
    if (!member || member.status !== 'active') {
      throw new AppError('assignee_not_member', `'${memberId}' is not an active member of this workspace.`, {
        errors: [{ pointer, detail: member ? 'the member has not accepted the invitation' : 'no such member' }],
      })
    }
  }
}

/** The module's usage hook: messages and AI drafts per UTC day, for the workspace usage report. */
export async function inboxUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const [messages, drafts] = await Promise.all([
    repo.countPerDay(k.db, tenant, 'inbox_messages', from, to),
    repo.countPerDay(k.db, tenant, 'inbox_ai_drafts', from, to),
  ])
  return [
    ...messages.map((r) => ({ day: r.day, metric: 'messages', count: Number(r.n) })),
    ...drafts.map((r) => ({ day: r.day, metric: 'ai_drafts', count: Number(r.n) })),
  ]
}

/** Trimmed; e-mail addresses lower-cased; empty strings are not accepted by the schema. */
function normaliseContact(c: ContactInput): ContactInput {
  const out: ContactInput = { ...c }
  if (typeof out.email === 'string') out.email = out.email.trim().toLowerCase()
  if (typeof out.name === 'string') out.name = out.name.trim()
  return out
}

declare module '../../kernel/services.js' {
  interface Services {
    inbox: InboxService
  }
}
