import type { LeadStatus } from './leads.tables.js'

/**
 * The status machine (docs/leads.md). `converted` is final; `unqualified` and `lost` can be reopened
 * (to `new` or `contacted`). Anything else — the same status included — is 409 invalid_lead_transition.
 */
export const TRANSITIONS: Record<LeadStatus, LeadStatus[]> = {
  new: ['contacted', 'qualified', 'unqualified', 'lost'],
  contacted: ['qualified', 'unqualified', 'lost'],
  qualified: ['converted', 'unqualified', 'lost'],
  converted: [],
  unqualified: ['new', 'contacted'],
  lost: ['new', 'contacted'],
}

export const canMove = (from: LeadStatus, to: LeadStatus): boolean => TRANSITIONS[from].includes(to)
