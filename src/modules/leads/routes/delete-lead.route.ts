import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedLead, IdParams } from '../leads.schemas.js'

export const deleteLead = defineRoute({
  operationId: 'deleteLead',
  method: 'DELETE',
  url: '/leads/{id}',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Delete a lead',
  description: 'Removes the lead and its activities. A record already synced to the CRM stays there.',
  schema: { params: IdParams, response: { 200: DeletedLead } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.leads.leads.delete(principal, params.id),
})
