import { fromJson, toJson, type Executor, type Tx } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { activityOf, noActivity } from './inbox.activity.js'
import { isWellFormedId } from './inbox.input.js'
import { detectTopics, scoreLead } from './inbox.lead-score.js'
import * as repo from './inbox.repository.js'
import type { CreateConversationBodyT, LeadScoreT, SendMessageBodyT } from './inbox.schemas.js'
import type { InboxConversationsTable, InboxMessagesTable, InboxTagsTable } from './inbox.tables.js'
import { conversationView } from './inbox.views.js'

// Steps more than one inbox service takes. Reads here run on the pool: call them before a transaction
// (SQLite has one connection, held by the transaction), except conversationOr404, which takes the executor.

export type ContactInput = NonNullable<CreateConversationBodyT['contact']>

/** The conversation, locked for update where row locks exist (SQLite serialises writers by itself); else 404. */
export async function conversationOr404(k: Kernel, db: Executor, tenant: Tenant, id: string, forUpdate = false): Promise<InboxConversationsTable> {
  const lock = forUpdate && k.database.engine === 'postgres'
  const row = isWellFormedId(id) ? await repo.findConversation(db, tenant, id, { forUpdate: lock }) : undefined
  if (!row) throw notFound('conversation', id)
  return row
}

/** The automatic lead score of a conversation row (used when no manual score is set). */
export function autoLead(row: InboxConversationsTable): { lead_score: number; lead_factors: string } {
  const lead: LeadScoreT = scoreLead({
    hasEmail: !!row.contact_email,
    hasPhone: !!row.contact_phone,
    inboundCount: row.inbound_count,
    topics: fromJson<string[]>(row.lead_signals, []),
  })
  return { lead_score: lead.score, lead_factors: toJson(lead.factors) }
}

/** Tag names → the workspace's tags (case-insensitive, de-duplicated); any unknown name → 422. */
export async function resolveTags(k: Kernel, tenant: Tenant, names: string[]): Promise<InboxTagsTable[]> {
  const keys = [...new Set(names.map((n) => n.toLowerCase()))]
  const found = await repo.findTagsByKeys(k.db, tenant, keys)
  const byKey = new Map(found.map((t) => [t.name_key, t]))
  const missing = names.map((n, i) => ({ n, i })).filter(({ n }) => !byKey.has(n.toLowerCase()))
  if (missing.length > 0) {
    throw new AppError('unknown_tag', `No tag named ${missing.map((m) => `'${m.n}'`).join(', ')}; create it with POST /inbox/tags first.`, {
      errors: missing.map((m) => ({ pointer: `/body/tags/${m.i}`, detail: 'no such tag' })),
    })
  }
  return keys.map((key) => byKey.get(key)!)
}

/** Assignees and member authors must be active members (asked of the workspaces module's service). */
export async function assertActiveMember(services: Services, tenant: Tenant, memberId: string, pointer: string): Promise<void> {
  const member = isWellFormedId(memberId) ? await services.workspaces.getMember(tenant, memberId) : null
  if (!member || member.status !== 'active') {
    throw new AppError('assignee_not_member', `'${memberId}' is not an active member of this workspace.`, {
      errors: [{ pointer, detail: member ? 'the member has not accepted the invitation' : 'no such member' }],
    })
  }
}

/** Validate direction, author and note flag; build the message row (nothing is written). */
export async function buildMessage(services: Services, principal: Principal, conversationId: string, body: SendMessageBodyT, now: string, pointer: string): Promise<InboxMessagesTable> {
  const direction = body.direction ?? 'outbound'
  const isPrivate = body.private ?? false
  const author = body.author ?? (direction === 'inbound' ? { type: 'contact' as const } : { type: 'api_key' as const })
  const bad = (detail: string, field: string) => new AppError('invalid_message_author', detail, { errors: [{ pointer: `${pointer}/${field}`, detail }] })
  if (direction === 'inbound' && author.type !== 'contact') throw bad('An inbound message comes from the contact; author.type must be contact.', 'author/type')
  if (direction === 'outbound' && author.type === 'contact') throw bad('An outbound message goes to the contact; its author is a member, a bot or the API key.', 'author/type')
  if (isPrivate && direction === 'inbound') throw bad('A private note is written by the team: it must be outbound.', 'private')
  let authorId: string | null = null
  if (author.type === 'member') {
    if (!author.id) throw bad('A member author needs author.id (mem_…).', 'author/id')
    await assertActiveMember(services, principal, author.id, `${pointer}/author/id`)
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
    attachments: toJson((body.attachments ?? []).map((a) => ({ url: a.url, filename: a.filename ?? null, content_type: a.content_type ?? null, size_bytes: a.size_bytes ?? null }))),
    created_at: now,
  }
}

/** Trimmed; e-mail addresses lower-cased; empty strings are not accepted by the schema. */
export function normaliseContact(c: ContactInput): ContactInput {
  const out: ContactInput = { ...c }
  if (typeof out.email === 'string') out.email = out.email.trim().toLowerCase()
  if (typeof out.name === 'string') out.name = out.name.trim()
  return out
}

/**
 * What an inbound message does to its conversation (the row, read locked in the same transaction): lead
 * signals, inbound count and score; it reopens a resolved conversation and wakes a snoozed one.
 */
export async function applyInbound(k: Kernel, tx: Tx, tenant: Tenant, row: InboxConversationsTable, message: InboxMessagesTable): Promise<InboxConversationsTable> {
  const seen = new Set([...fromJson<string[]>(row.lead_signals, []), ...detectTopics(message.content)])
  const patch: Partial<InboxConversationsTable> = {
    ...activityOf(message),
    updated_at: message.created_at,
    inbound_count: row.inbound_count + 1,
    lead_signals: toJson([...seen]),
  }
  if (row.status === 'resolved' || row.status === 'snoozed') Object.assign(patch, { status: 'open', resolved_at: null, snoozed_until: null })
  const next = { ...row, ...patch }
  if (next.lead_score_manual === 0) Object.assign(next, autoLead(next))
  await repo.updateConversation(tx, tenant, row.id, { ...patch, lead_score: next.lead_score, lead_factors: next.lead_factors })
  if (row.status === 'resolved') await k.events.emit(tx, tenant, 'conversation.reopened', conversationView(next))
  else if (row.status === 'snoozed') await k.events.emit(tx, tenant, 'conversation.updated', conversationView(next))
  return next
}

/** A new conversation's row; `message` is its first message, if any (an inbound one counts for the lead score). */
export function newConversationRow(
  tenant: Tenant,
  id: string,
  input: {
    channel?: InboxConversationsTable['channel']
    status?: 'open' | 'pending'
    subject?: string | null
    contact?: ContactInput
    assignee_id?: string | null
    tags: InboxTagsTable[]
    metadata?: Record<string, string>
  },
  message: InboxMessagesTable | null,
  now: string,
): InboxConversationsTable {
  const contact = normaliseContact(input.contact ?? {})
  const inbound = message?.direction === 'inbound'
  const signals = inbound ? detectTopics(message.content) : []
  const lead = scoreLead({ hasEmail: !!contact.email, hasPhone: !!contact.phone, inboundCount: inbound ? 1 : 0, topics: signals })
  return {
    id,
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    status: input.status ?? 'open',
    channel: input.channel ?? 'api',
    subject: input.subject ?? null,
    contact_name: contact.name ?? null,
    contact_email: contact.email ?? null,
    contact_phone: contact.phone ?? null,
    contact_external_id: contact.external_id ?? null,
    assignee_id: input.assignee_id ?? null,
    tags: toJson(input.tags.map((t) => t.name)),
    lead_score: lead.score,
    lead_factors: toJson(lead.factors),
    lead_score_manual: 0,
    lead_signals: toJson(signals),
    inbound_count: inbound ? 1 : 0,
    metadata: toJson(input.metadata ?? {}),
    ...(message ? activityOf(message) : noActivity(now)),
    snoozed_until: null,
    resolved_at: null,
    created_at: now,
    updated_at: now,
  }
}
