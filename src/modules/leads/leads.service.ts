import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { CrmSettings } from './crm/crm-settings.js'
import { LeadActivitiesService } from './lead-activities.service.js'
import { LeadStatusService } from './lead-status.service.js'
import { LeadSyncService, type SyncLeadPayload } from './lead-sync.service.js'
import { LeadsCrudService } from './leads-crud.service.js'
import * as repo from './leads.repository.js'
import { autoCreateLeadJob, autoCreateSubscriber, type AutoCreatePayload } from './jobs/auto-create-lead.job.js'
import { syncLeadJob } from './jobs/sync-lead.job.js'

/** `services.leads`: one service per resource, e.g. `services.leads.status.change(principal, id, 'contacted', null)`. */
export class LeadsService {
  readonly leads: LeadsCrudService
  readonly status: LeadStatusService
  readonly activities: LeadActivitiesService
  readonly sync: LeadSyncService
  /** The tenant's CRM, kept in the workspace's settings (registered here with services.workspaces). */
  readonly crm: CrmSettings
  readonly syncJob: JobDefinition<SyncLeadPayload>
  readonly autoCreateJob: JobDefinition<AutoCreatePayload>
  /** The in-transaction subscriber that queues auto-creation checks (registered by the module). */
  readonly autoCreate: ReturnType<typeof autoCreateSubscriber>

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.crm = new CrmSettings(k, services)
    services.workspaces.registerSettings(this.crm)
    this.syncJob = syncLeadJob(k, services)
    this.autoCreateJob = autoCreateLeadJob(k, services)
    this.autoCreate = autoCreateSubscriber(k, services, () => this.autoCreateJob)
    this.leads = new LeadsCrudService(k, services)
    this.status = new LeadStatusService(k, services)
    this.activities = new LeadActivitiesService(k, this.leads)
    this.sync = new LeadSyncService(k, services, () => this.syncJob)
  }

  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    return { status: 'ok' }
  }
}

/** The module's usage hook: leads created and CRM syncs finished (synced or failed), per UTC day. */
export async function leadsUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const leads = await countPerDay(k.db, tenant, 'leads', from, to)
  const syncs = await countPerDay(k.db, tenant, 'lead_activities', from, to, { where: ['type', 'sync'] })
  return [...leads.map((r) => ({ day: r.day, metric: 'leads', count: r.count })), ...syncs.map((r) => ({ day: r.day, metric: 'lead_syncs', count: r.count }))]
}

declare module '../../kernel/services.js' {
  interface Services {
    leads: LeadsService
  }
}
