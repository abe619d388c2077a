import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson } from '../../../kernel/db/database.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { crmAdapterFor } from '../crm/crm.js'
import type { CrmLead, CrmResult } from '../crm/crm.types.js'
import { record } from '../lead-activities.service.js'
import type { SyncLeadPayload } from '../lead-sync.service.js'
import * as repo from '../leads.repository.js'
import type { LeadsTable } from '../leads.tables.js'
import { leadView } from '../leads.views.js'

/** Attempts: the first and six retries (2 s … 30 min), each sooner or later when the CRM says Retry-After. */
export const SYNC_RETRY_SCHEDULE = [2, 30, 120, 600, 1800, 1800]

/**
 * One lead to the CRM. Idempotent: the adapter upserts (by external id, else by email: never a second
 * record), the call carries `Idempotency-Key` = lead + sync number, and the outcome is written with the
 * lead's link in one transaction. A worker killed mid-call leaves the job to be taken over; the retry
 * finds the record the first call created by its email and updates it.
 */
export const syncLeadJob = (k: Kernel, services: Services) =>
  defineJob<SyncLeadPayload>({
    name: 'leads.sync',
    retrySchedule: SYNC_RETRY_SCHEDULE,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const lead = await repo.findLead(k.db, tenant, p.lead_id)
      // Deleted, or a newer sync request superseded this one (it carries the newer data).
      if (!lead || Number(lead.crm_sync_seq) !== p.seq) return
      const conn = await services.leads.crm.connection(tenant)
      const result: CrmResult = conn
        ? await crmAdapterFor(k, conn).upsert(crmLeadOf(lead), { idempotencyKey: `lead_sync_${lead.id}_${p.seq}` })
        : { ok: false, retryable: false, retry_after_ms: null, status: null, code: 'crm_not_configured', message: 'The CRM was removed from the workspace settings.' }
      if (!result.ok && result.retryable && ctx.attempt <= SYNC_RETRY_SCHEDULE.length) {
        if (result.retry_after_ms !== null) ctx.retryAt = new Date(k.clock.now().getTime() + result.retry_after_ms)
        await repo.updateLead(k.db, tenant, lead.id, { crm_last_error: `${result.message} (attempt ${ctx.attempt}; retrying)` })
        throw new Error(`CRM ${result.code}: ${result.message}`)
      }
      await finish(k, tenant, lead, p.seq, result)
    },
  })

async function finish(k: Kernel, tenant: Tenant, lead: LeadsTable, seq: number, result: CrmResult): Promise<void> {
  const now = iso(k.clock.now())
  await k.transaction(sideOwner(tenant), async (tx) => {
    const current = await repo.findLead(tx, tenant, lead.id)
    if (!current || Number(current.crm_sync_seq) !== seq) return
    const patch: Partial<LeadsTable> = result.ok
      ? { crm_external_id: result.external_id, crm_synced_at: now, crm_sync_status: 'synced', crm_last_error: null, updated_at: now }
      : { crm_sync_status: 'failed', crm_last_error: result.status ? `${result.status} ${result.code}: ${result.message}` : `${result.code}: ${result.message}`, updated_at: now }
    await repo.updateLead(tx, tenant, lead.id, patch)
    await record(k, tx, tenant, lead.id, 'sync', {
      subject: result.ok ? `${result.action} in ${current.crm_provider ?? 'the CRM'} (${result.external_id})` : `sync failed: ${result.message}`.slice(0, 200),
      data: result.ok ? { ok: true, action: result.action, external_id: result.external_id } : { ok: false, code: result.code, status: result.status, message: result.message },
      actor: 'system',
    })
    await k.events.emit(tx, tenant, result.ok ? 'lead.synced' : 'lead.sync_failed', leadView({ ...current, ...patch }))
  })
}

export function crmLeadOf(l: LeadsTable): CrmLead {
  return {
    id: l.id,
    email: l.email,
    name: l.name,
    phone: l.phone,
    company: l.company,
    title: l.title,
    status: l.status,
    score: Number(l.score),
    properties: fromJson(l.properties, {}),
    external_id: l.crm_external_id,
  }
}
