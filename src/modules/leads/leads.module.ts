import { defineModule } from '../../kernel/module.js'
import { LEADS_ERRORS } from './leads.errors.js'
import { LEADS_EVENTS } from './leads.events.js'
import { leadsMigrations } from './leads.migrations.js'
import { leadsPrivacy } from './leads.privacy.js'
import { LeadsService, leadsUsage } from './leads.service.js'
import { createLeadActivity } from './routes/create-lead-activity.route.js'
import { createLead } from './routes/create-lead.route.js'
import { deleteLead } from './routes/delete-lead.route.js'
import { getLead } from './routes/get-lead.route.js'
import { listLeadActivities } from './routes/list-lead-activities.route.js'
import { listLeads } from './routes/list-leads.route.js'
import { qualifyLead } from './routes/qualify-lead.route.js'
import { syncLeadToCrm } from './routes/sync-lead-to-crm.route.js'
import { updateLeadStatus } from './routes/update-lead-status.route.js'
import { updateLead } from './routes/update-lead.route.js'

export const leadsModule = defineModule({
  name: 'leads',
  scopes: [{ resource: 'leads', memberWrites: true }],
  uses: ['workspaces', 'inbox'],
  errors: LEADS_ERRORS,
  migrations: leadsMigrations,
  routes: [listLeads, createLead, getLead, updateLead, deleteLead, qualifyLead, syncLeadToCrm, listLeadActivities, createLeadActivity, updateLeadStatus],
  init(kernel, services) {
    kernel.events.declare(LEADS_EVENTS)
    const leads = new LeadsService(kernel, services)
    kernel.jobs.register(leads.syncJob)
    kernel.jobs.register(leads.autoCreateJob)
    kernel.events.subscribeInTransaction('leads.auto-create', leads.autoCreate)
    services.leads = leads
  },
  health: (_kernel, services) => services.leads.health(),
  usage: leadsUsage,
  privacy: leadsPrivacy,
})
