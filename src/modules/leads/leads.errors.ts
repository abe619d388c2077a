import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The leads module's error codes (the kernel keeps only generic ones). */
export const LEADS_ERRORS = defineErrors('leads', {
  // createLead with an email another lead of the workspace has; the problem's `existing_id` names it.
  lead_already_exists: { status: 409, title: 'Lead already exists' },
  // updateLeadStatus to a status the machine does not allow from the current one (docs/leads.md).
  invalid_lead_transition: { status: 409, title: 'Invalid lead status transition' },
  // syncLeadToCrm in a workspace (mode) with no CRM configured (PATCH /workspaces/{id} `crm`).
  crm_not_configured: { status: 422, title: 'CRM not configured' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof LEADS_ERRORS, ErrorSpec> {}
}
