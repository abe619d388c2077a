import { iso, utc } from '../../kernel/clock.js'
import { toJson, type Executor } from '../../kernel/db/database.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { leadOr404, type LeadsCrudService } from './leads-crud.service.js'
import * as repo from './leads.repository.js'
import type { ActivityT, CreateActivityBodyT } from './leads.schemas.js'
import type { ActivityType, LeadActivitiesTable } from './leads.tables.js'
import { activityView, leadView } from './leads.views.js'

/** A lead's timeline: what people record (notes, calls, …) and what the service records (status, qualification, sync). */
export class LeadActivitiesService {
  constructor(
    private readonly k: Kernel,
    private readonly crud: LeadsCrudService,
  ) {}

  async list(tenant: Tenant, leadId: string, q: { cursor?: string; limit?: number }): Promise<PageResult<ActivityT>> {
    await leadOr404(this.k.db, tenant, leadId)
    return this.k.paginate({
      list: 'listLeadActivities',
      tenant,
      filters: { lead: leadId },
      query: q,
      fetch: (page) => repo.listActivities(this.k.db, tenant, leadId, page),
      key: (r) => r.id,
      view: activityView,
    })
  }

  /** Recorded by a person; an engagement counts in the lead's score, which is recomputed with it. */
  async create(principal: Principal, leadId: string, body: CreateActivityBodyT): Promise<ActivityT> {
    const lead = await leadOr404(this.k.db, principal, leadId)
    const engagements = (await repo.countEngagements(this.k.db, principal, leadId)) + 1
    const scored = await this.crud.scored(principal, lead, engagements)
    return this.k.transaction(principal, async (tx) => {
      const row = await record(this.k, tx, principal, leadId, body.type, { subject: body.subject, body: body.body, data: body.data, actor: principal.keyId, occurredAt: utc(body.occurred_at) })
      if (scored.score !== Number(lead.score) || scored.score_factors !== lead.score_factors) {
        const patch = { ...scored, updated_at: row.created_at }
        await repo.updateLead(tx, principal, leadId, patch)
        await this.k.events.emit(tx, principal, 'lead.updated', leadView({ ...lead, ...patch }))
      }
      return activityView(row)
    })
  }
}

/** Writes one activity in the caller's transaction. */
export async function record(
  k: Kernel,
  tx: Executor,
  tenant: Tenant,
  leadId: string,
  type: ActivityType,
  a: { subject?: string | null; body?: string | null; data?: Record<string, unknown>; actor: string; occurredAt?: string },
): Promise<LeadActivitiesTable> {
  const now = iso(k.clock.now())
  const row: LeadActivitiesTable = {
    id: newId('act'),
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    lead_id: leadId,
    type,
    subject: a.subject ?? null,
    body: a.body ?? null,
    data: toJson(a.data ?? {}),
    actor: a.actor,
    occurred_at: a.occurredAt ?? now,
    created_at: now,
  }
  await repo.insertActivity(tx, row)
  return row
}
