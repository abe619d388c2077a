import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import type { ModulePrivacy } from '../../kernel/module.js'
import type { LeadsTable } from './leads.tables.js'
import * as repo from './leads.repository.js'
import { activityView, leadView } from './leads.views.js'

// The leads module's part in data-subject requests (docs/compliance.md "What each module does"). A lead is
// the subject when its email or phone is the subject's (leads have no external id of the person; the CRM's
// id is the CRM's). Erasure deletes here only: a copy already synced to a CRM is the CRM's to erase.

export const leadsPrivacy: ModulePrivacy = {
  /** The names on the subject's leads. */
  async names(k, _services, tenant, subject) {
    return (await repo.leadsOfSubject(k.db, tenant, subject)).map((l) => l.name).filter((n): n is string => !!n)
  },

  async collect(k, _services, tenant, subject) {
    const leads = await repo.leadsOfSubject(k.db, tenant, subject)
    const activities = await repo.activitiesOfLeads(
      k.db,
      tenant,
      leads.map((l) => l.id),
    )
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
    const deleted = await k.transaction(sideOwner(tenant), async (tx) => {
      const n = await repo.deleteLeads(tx, tenant, ids)
      for (const id of ids) await k.events.emit(tx, tenant, 'lead.deleted', { id, object: 'lead', deleted: true })
      return n
    })
    return { deleted, anonymised: 0 }
  },

  /**
   * Corrects the subject's leads: `name` on each; `email` where the lead carries the subject's old email (or
   * none) and no other lead has the new one (one lead per email); `phone` where the lead carries the old
   * number (or none, or the request does not know one). `lead.updated` for each lead changed.
   */
  async rectify(k, _services, tenant, subject, changes) {
    const leads = await repo.leadsOfSubject(k.db, tenant, subject)
    let changed = 0
    for (const lead of leads) {
      const patch: Partial<LeadsTable> = {}
      if (changes.name && changes.name !== lead.name) patch.name = changes.name
      if (changes.email && changes.email !== lead.email && (!lead.email || lead.email === subject.email)) {
        const holder = await repo.findLeadByEmail(k.db, tenant, changes.email)
        if (!holder) patch.email = changes.email
      }
      if (changes.phone && changes.phone !== lead.phone && (!lead.phone || !subject.phone || lead.phone === subject.phone)) patch.phone = changes.phone
      if (Object.keys(patch).length === 0) continue
      patch.updated_at = iso(k.clock.now())
      await k.transaction(sideOwner(tenant), async (tx) => {
        await repo.updateLead(tx, tenant, lead.id, patch)
        await k.events.emit(tx, tenant, 'lead.updated', leadView({ ...lead, ...patch }))
      })
      changed++
    }
    return changed
  },
}
