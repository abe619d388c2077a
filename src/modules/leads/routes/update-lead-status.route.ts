import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, Lead, UpdateLeadStatusBody } from '../leads.schemas.js'

export const updateLeadStatus = defineRoute({
  operationId: 'updateLeadStatus',
  method: 'POST',
  url: '/leads/{id}/status',
  module: 'leads',
  scope: 'leads:write',
  summary: "Change a lead's status",
  description:
    'new → contacted → qualified → converted, or unqualified / lost (which can be reopened to new or contacted); converted is final. ' +
    'Any other move is 409 `invalid_lead_transition`. The change and its `reason` are recorded as an activity.',
  schema: { params: IdParams, body: UpdateLeadStatusBody, response: { 200: Lead } },
  errors: ['resource_not_found', 'invalid_lead_transition'],
  handler: ({ params, body, principal, services }) => services.leads.status.change(principal, params.id, body.status, body.reason ?? null),
})
