import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { manualLeadScore } from './inbox.lead-score.js'
import * as repo from './inbox.repository.js'
import type { InboxWorkingService } from './inbox-working.service.js'
import type { ConversationT, CreateConversationBodyT, ListConversationsQueryT, UpdateConversationBodyT } from './inbox.schemas.js'
import { memberIdOf, memberOnly, unreadOf } from './inbox.member.js'
import { assertActiveMember, autoLead, buildMessage, conversationOr404, newConversationRow, normaliseContact, resolveTags } from './inbox.shared.js'
import { assertTransition } from './inbox.status.js'
import type { Channel, ConversationStatus, InboxConversationsTable } from './inbox.tables.js'
import { conversationView, messageView } from './inbox.views.js'

/** Conversations: list with filters, get, create (optionally with a first message), update, assign, resolve. */
export class ConversationsService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly working: () => InboxWorkingService,
  ) {}

  async list(principal: Principal, q: ListConversationsQueryT): Promise<PageResult<ConversationT>> {
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
    const memberId = memberIdOf(principal)
    if (q.assignee === 'me' && !memberId) throw memberOnly('/query/assignee', '`assignee=me`')
    if (q.unread !== undefined && !memberId) throw memberOnly('/query/unread', '`unread`')
    const assignee = q.assignee === 'me' ? memberId! : q.assignee
    const filters: repo.ConversationFilters = {
      status: q.status,
      assignee: assignee === undefined ? undefined : assignee === 'unassigned' ? null : assignee,
      tagKey: q.tag?.toLowerCase(),
      channel: q.channel,
      updatedAfter,
      memberId: memberId ?? undefined,
      unread: q.unread === true ? true : undefined,
    }
    const order = q.order ?? 'created'
    const activity = order === 'last_activity'
    return this.k.paginate({
      list: 'listConversations',
      tenant: principal,
      // The cursor is bound to the order and, with `unread`, to the member whose marks it read.
      filters: {
        status: q.status,
        assignee,
        tag: filters.tagKey,
        channel: q.channel,
        updated_after: updatedAfter,
        order: activity ? order : undefined,
        unread: filters.unread,
        member: filters.unread ? (memberId ?? undefined) : undefined,
      },
      query: q,
      keyShape: activity ? repo.ACTIVITY_KEY_SHAPE : undefined,
      fetch: (page) => repo.listConversations(this.k.db, principal, filters, page, order),
      key: (r) => (activity ? repo.activityKey(r) : r.id),
      view: (r) => conversationView(r, memberId ? unreadOf(r.inbound_count, r.read_inbound_count) : null),
    })
  }

  /** One conversation; for a member's credential with its unread_count. */
  async get(tenant: Tenant, id: string): Promise<ConversationT> {
    const row = await conversationOr404(this.k, this.k.db, tenant, id)
    return this.withUnread(tenant, row)
  }

  /** The newest unresolved conversation with this contact external id on the channel, if any (v1's current chat). */
  openWithContact(tenant: Tenant, externalId: string, channel: Channel): Promise<string | null> {
    return repo.findOpenByContact(this.k.db, tenant, externalId, channel)
  }

  /** Conversation ids newest first, `take` of them after skipping `offset` (v1's offset pages; the caller bounds it). */
  idsAt(tenant: Tenant, offset: number, take: number): Promise<string[]> {
    return repo.conversationIdsAt(this.k.db, tenant, offset, take)
  }

  /** The view of a row for the credential: unread_count from the member's read mark (a key lookup), else null. */
  async withUnread(tenant: Tenant, row: InboxConversationsTable): Promise<ConversationT> {
    const memberId = memberIdOf(tenant)
    if (!memberId) return conversationView(row)
    const mark = await repo.findReadMark(this.k.db, tenant, row.id, memberId)
    return conversationView(row, unreadOf(row.inbound_count, mark?.read_inbound_count ?? null))
  }

  async create(principal: Principal, body: CreateConversationBodyT): Promise<ConversationT> {
    const tenant: Tenant = principal
    // Reads on the pool happen before the transaction: SQLite has one connection, held by the transaction.
    const tags = body.tags ? await resolveTags(this.k, tenant, body.tags) : []
    if (body.assignee_id) await assertActiveMember(this.services, tenant, body.assignee_id, '/body/assignee_id')
    const id = newId('conv')
    const now = iso(this.k.clock.now())
    const message = body.message ? await buildMessage(this.services, principal, id, body.message, now, '/body/message') : null
    const row = newConversationRow(tenant, id, { ...body, tags }, message, now)
    const view = conversationView(row)
    return this.k.transaction(principal, async (tx) => {
      await repo.insertConversation(tx, row)
      await repo.addConversationTags(tx, tenant, id, tags)
      await this.k.events.emit(tx, tenant, 'conversation.created', view)
      if (message) {
        await repo.insertMessage(tx, message)
        await this.k.events.emit(tx, tenant, 'message.created', messageView(message))
      }
      return view
    })
  }

  async update(tenant: Tenant, id: string, body: UpdateConversationBodyT): Promise<ConversationT> {
    const tags = body.tags ? await resolveTags(this.k, tenant, body.tags) : null
    const now = this.k.clock.now()
    if (body.snoozed_until) {
      const t = Date.parse(body.snoozed_until)
      if (Number.isNaN(t) || t <= now.getTime()) {
        throw new AppError('validation_failed', '`snoozed_until` must be a timestamp in the future.', {
          errors: [{ pointer: '/body/snoozed_until', detail: 'must be in the future' }],
        })
      }
    }
    return this.k.transaction(tenant, async (tx) => {
      const row = await conversationOr404(this.k, tx, tenant, id, true)
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
      if (next.lead_score_manual === 0) Object.assign(next, autoLead(next))
      await repo.updateConversation(tx, tenant, id, { ...patch, lead_score: next.lead_score, lead_factors: next.lead_factors })
      if (patch.snoozed_until) await this.working().scheduleWake(tx, tenant, id, patch.snoozed_until)
      const view = conversationView(next)
      await this.k.events.emit(tx, tenant, 'conversation.updated', view)
      if (status !== row.status && status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.resolved', view)
      if (status !== row.status && row.status === 'resolved') await this.k.events.emit(tx, tenant, 'conversation.reopened', view)
      return view
    })
  }

  async assign(tenant: Tenant, id: string, assigneeId: string | null): Promise<ConversationT> {
    if (assigneeId !== null) await assertActiveMember(this.services, tenant, assigneeId, '/body/assignee_id')
    return this.k.transaction(tenant, async (tx) => {
      const row = await conversationOr404(this.k, tx, tenant, id, true)
      // Assigning to the current assignee changes nothing and emits nothing.
      if (row.assignee_id === assigneeId) return conversationView(row)
      const patch = { assignee_id: assigneeId, updated_at: iso(this.k.clock.now()) }
      await repo.updateConversation(tx, tenant, id, patch)
      const view = conversationView({ ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'conversation.assigned', view)
      return view
    })
  }

  /** Resolving a resolved conversation returns it unchanged (resolved_at of the first time, no event). */
  async resolve(tenant: Tenant, id: string): Promise<ConversationT> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await conversationOr404(this.k, tx, tenant, id, true)
      if (row.status === 'resolved') return conversationView(row)
      const now = iso(this.k.clock.now())
      const patch = { status: 'resolved' as const, resolved_at: now, snoozed_until: null, updated_at: now }
      await repo.updateConversation(tx, tenant, id, patch)
      const view = conversationView({ ...row, ...patch })
      await this.k.events.emit(tx, tenant, 'conversation.resolved', view)
      return view
    })
  }
}
