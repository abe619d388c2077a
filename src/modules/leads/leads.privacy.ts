import type { ModulePrivacy } from '../../kernel/module.js'
import * as repo from './leads.repository.js'
import { activityView, leadView } from './leads.views.js'

// The leads module's part in data-subject requests (docs/compliance.md "What each module does"). A lead is
// the subject when its email or phone is the subject's (leads have no external id of the person; the CRM's
// id is the CRM's). Erasure deletes here only: a copy already synced to a CRM is the CRM's to erase.

export const leadsPrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const leads = await repo.leadsOfSubject(k.db, tenant, subject)
    const activities = await repo.activitiesOfLeads(k.db, tenant, leads.map((l) => l.id))
    return {
      records: { leads: leads.map(leadView), lead_activities: activities.map(activityView) },
      files: [],
      ids: [...leads.map((l) => l.id), ...activities.map((a) => a.id)],
    }
  },

  /** Deletes the leads with their activities; `lead.deleted` for each, which carries the id only. */
  async erase(k, _services, tenant, subject) {
    const ids = (await repo.leadsOfSubject(k.db, tenant, subject)).map((l) => l.id)
    if (ids.length === 0) return { deleted: 0, anonymised: 0 }
    const deleted = await k.transaction(null, async (tx) => {
      const n = await repo.deleteLeads(tx, tenant, ids)
      for (const id of ids) await k.events.emit(tx, tenant, 'lead.deleted', { id, object: 'lead', deleted: true })
      return n
    })
    return { deleted, anonymised: 0 }
  },
}
