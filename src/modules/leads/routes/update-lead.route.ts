import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, Lead, UpdateLeadBody } from '../leads.schemas.js'

export const updateLead = defineRoute({
  operationId: 'updateLead',
  method: 'PATCH',
  url: '/leads/{id}',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Update a lead',
  description: 'Changes what is given and recomputes the score. The status changes through `POST /leads/{id}/status` only.',
  schema: { params: IdParams, body: UpdateLeadBody, response: { 200: Lead } },
  errors: ['resource_not_found', 'invalid_reference', 'lead_already_exists'],
  handler: ({ params, body, principal, services }) => services.leads.leads.update(principal, params.id, body),
})
