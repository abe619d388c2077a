import { iso } from '../../kernel/clock.js'
import { AppError } from '../../kernel/errors.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { withStatus, type WithStatus } from '../../kernel/http/response-status.js'
import { leadOr404 } from './leads-crud.service.js'
import * as repo from './leads.repository.js'
import type { LeadT } from './leads.schemas.js'
import { leadView } from './leads.views.js'

export interface SyncLeadPayload {
  workspace_id: string
  mode: Tenant['mode']
  lead_id: string
  /** The lead's sync request number: with the lead id, the CRM call's Idempotency-Key. */
  seq: number
}

/** `POST /leads/{id}/sync`: marks the lead pending and queues the durable sync job (202). */
export class LeadSyncService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly job: () => JobDefinition<SyncLeadPayload>,
  ) {}

  async request(principal: Principal, id: string): Promise<WithStatus<LeadT>> {
    const lead = await leadOr404(this.k.db, principal, id)
    const crm = await this.services.leads.crm.connection(principal)
    if (!crm) {
      throw new AppError(
        'crm_not_configured',
        `No CRM is configured for this workspace's ${principal.mode} mode: set one with PATCH /workspaces/${principal.workspaceId} { "crm": { "provider": "hubspot", "access_token": "…" } } (or provider "webhook").`,
      )
    }
    const now = iso(this.k.clock.now())
    return this.k.transaction(principal, async (tx) => {
      const seq = Number(lead.crm_sync_seq) + 1
      const patch = { crm_sync_status: 'pending' as const, crm_provider: crm.provider, crm_sync_seq: seq, updated_at: now }
      await repo.updateLead(tx, principal, id, patch)
      await enqueue(tx, this.k.clock, this.job(), { workspace_id: principal.workspaceId, mode: principal.mode, lead_id: id, seq })
      return withStatus(202, leadView({ ...lead, ...patch }))
    })
  }
}
