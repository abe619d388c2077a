import parsePhoneNumber from 'libphonenumber-js'
import { iso, utc } from '../../kernel/clock.js'
import { toJson, type Executor } from '../../kernel/db/database.js'
import { uniqueConflict } from '../../kernel/db/unique-conflict.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { scoreLead } from './lead-score.js'
import * as repo from './leads.repository.js'
import type { CreateLeadBodyT, LeadT, ListLeadsQueryT, UpdateLeadBodyT } from './leads.schemas.js'
import type { LeadsTable } from './leads.tables.js'
import { leadView } from './leads.views.js'
import { referenced } from '../../kernel/references.js'

/** Leads: create (one per email), read, list with filters, update (score recomputed), delete with their activities. */
export class LeadsCrudService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  list(tenant: Tenant, q: ListLeadsQueryT): Promise<PageResult<LeadT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({
      list: 'listLeads',
      tenant,
      filters,
      query: q,
      // Stored timestamps are UTC text, compared as text: the bound must be written the same way.
      fetch: (page) => repo.listLeads(this.k.db, tenant, { ...q, updated_after: utc(q.updated_after) }, page),
      key: (r) => r.id,
      view: leadView,
    })
  }

  async get(tenant: Tenant, id: string): Promise<LeadT> {
    return leadView(await leadOr404(this.k.db, tenant, id))
  }

  async create(principal: Principal, body: CreateLeadBodyT): Promise<LeadT> {
    const source = body.source ?? (body.source_id?.startsWith('conv_') ? 'conversation' : 'api')
    const sourceId = body.source_id
    const conversation = source === 'conversation' && sourceId ? await referenced('/body/source_id', () => this.services.inbox.conversations.get(principal, sourceId)) : null
    const email = normaliseEmail(body.email ?? conversation?.contact?.email ?? null)
    const phone = normalisePhone(body.phone ?? conversation?.contact?.phone ?? null, '/body/phone')
    if (body.owner_id) await this.assertOwner(principal, body.owner_id)
    if (email) await this.assertNoDuplicate(principal, email)
    if (body.source_id) {
      const same = await repo.findLeadBySource(this.k.db, principal, source, body.source_id)
      if (same) {
        throw new AppError('lead_already_exists', `Lead ${same.id} was already made from ${body.source_id}.`, {
          existing_id: same.id,
          errors: [{ pointer: '/body/source_id', detail: 'another lead has this source' }],
        })
      }
    }
    const now = iso(this.k.clock.now())
    const row: LeadsTable = {
      id: newId('lead'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      name: body.name ?? conversation?.contact?.name ?? null,
      email,
      phone,
      company: body.company ?? null,
      title: body.title ?? null,
      source,
      source_id: body.source_id ?? null,
      owner_id: body.owner_id ?? null,
      status: 'new',
      score: 0,
      score_factors: '[]',
      qualification: null,
      properties: toJson(body.properties ?? {}),
      tags: toJson(body.tags ?? []),
      crm_provider: null,
      crm_external_id: null,
      crm_synced_at: null,
      crm_sync_status: 'never',
      crm_last_error: null,
      crm_sync_seq: 0,
      created_at: now,
      updated_at: now,
    }
    Object.assign(row, await this.scored(principal, row, 0))
    return uniqueConflict(
      () =>
        this.k.transaction(principal, async (tx) => {
          await repo.insertLead(tx, row)
          const view = leadView(row)
          await this.k.events.emit(tx, principal, 'lead.created', view)
          return view
        }),
      'lead_already_exists',
      [
        { constraint: /source/, pointer: '/body/source_id', detail: 'another lead has this source' },
        { pointer: '/body/email', detail: 'another lead has this email' },
      ],
    )
  }

  async update(principal: Principal, id: string, body: UpdateLeadBodyT): Promise<LeadT> {
    const current = await leadOr404(this.k.db, principal, id)
    const patch: Partial<LeadsTable> = {}
    if (body.name !== undefined) patch.name = body.name
    if (body.email !== undefined) patch.email = normaliseEmail(body.email)
    if (body.phone !== undefined) patch.phone = normalisePhone(body.phone, '/body/phone')
    if (body.company !== undefined) patch.company = body.company
    if (body.title !== undefined) patch.title = body.title
    if (body.owner_id !== undefined) {
      if (body.owner_id) await this.assertOwner(principal, body.owner_id)
      patch.owner_id = body.owner_id
    }
    if (body.properties !== undefined) patch.properties = toJson(body.properties)
    if (body.tags !== undefined) patch.tags = toJson(body.tags)
    if (patch.email && patch.email !== current.email) await this.assertNoDuplicate(principal, patch.email)
    const next = { ...current, ...patch }
    Object.assign(patch, await this.scored(principal, next, await repo.countEngagements(this.k.db, principal, id)), { updated_at: iso(this.k.clock.now()) })
    return uniqueConflict(
      () =>
        this.k.transaction(principal, async (tx) => {
          await repo.updateLead(tx, principal, id, patch)
          const view = leadView({ ...current, ...patch })
          await this.k.events.emit(tx, principal, 'lead.updated', view)
          return view
        }),
      'lead_already_exists',
      [{ pointer: '/body/email', detail: 'another lead has this email' }],
    )
  }

  /** The lead and its activities go in one transaction; `lead.deleted` carries the id only. */
  async delete(principal: Principal, id: string): Promise<{ id: string; object: 'lead'; deleted: true }> {
    await leadOr404(this.k.db, principal, id)
    return this.k.transaction(principal, async (tx) => {
      await repo.deleteLead(tx, principal, id)
      const gone = { id, object: 'lead' as const, deleted: true as const }
      await this.k.events.emit(tx, principal, 'lead.deleted', gone)
      return gone
    })
  }

  /** The score of a lead as it is now: its fields, its source conversation, its messages, its engagements. */
  async scored(tenant: Tenant, lead: LeadsTable, engagements: number): Promise<Pick<LeadsTable, 'score' | 'score_factors'>> {
    const conv = lead.source === 'conversation' && lead.source_id ? await this.services.inbox.conversations.get(tenant, lead.source_id).catch(() => null) : null
    const messages = conv ? await customerMessages(this.services, tenant, conv.id) : []
    const leadScore = conv && typeof conv.lead_score === 'object' ? conv.lead_score : null
    const s = scoreLead({ email: lead.email, phone: lead.phone, company: lead.company, title: lead.title, conversation: leadScore, messages: messages.map((m) => m.content), engagements })
    return { score: s.score, score_factors: toJson(s.factors) }
  }

  private async assertOwner(tenant: Tenant, ownerId: string): Promise<void> {
    const m = await this.services.workspaces.getMember(tenant, ownerId)
    if (!m || m.status !== 'active') {
      throw new AppError('invalid_reference', `No active workspace member with id '${ownerId}'.`, { errors: [{ pointer: '/body/owner_id', detail: 'must be an active member' }] })
    }
  }

  private async assertNoDuplicate(tenant: Tenant, email: string): Promise<void> {
    const existing = await repo.findLeadByEmail(this.k.db, tenant, email)
    if (existing) {
      throw new AppError('lead_already_exists', `Lead ${existing.id} already has the email ${email}; update it instead.`, {
        existing_id: existing.id,
        errors: [{ pointer: '/body/email', detail: 'another lead has this email' }],
      })
    }
  }
}

export async function leadOr404(db: Executor, tenant: Tenant, id: string): Promise<LeadsTable> {
  const row = await repo.findLead(db, tenant, id)
  if (!row) throw notFound('lead', id)
  return row
}

/** The customer's messages of a conversation, oldest first (at most 200). */
export async function customerMessages(services: Services, tenant: Tenant, conversationId: string): Promise<{ id: string; content: string }[]> {
  const page = await services.inbox.messages.list(tenant, conversationId, { limit: 100, order: 'asc' })
  return page.data.filter((m) => m.direction === 'inbound' && !m.private).map((m) => ({ id: m.id, content: m.content }))
}

const normaliseEmail = (e: string | null): string | null => (e ? e.trim().toLowerCase() : null)

/** Any common format to E.164; a number that is not a valid phone number is 422. */
export function normalisePhone(input: string | null, pointer: string): string | null {
  if (!input) return null
  const parsed = parsePhoneNumber(input)
  if (!parsed || !parsed.isValid()) {
    throw new AppError('validation_failed', `'${input}' is not a valid phone number; write it with its country code, e.g. +44 20 7946 0958.`, {
      errors: [{ pointer, detail: 'must be a valid phone number with its country code' }],
    })
  }
  return parsed.number
}
