import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, Lead } from '../leads.schemas.js'

export const getLead = defineRoute({
  operationId: 'getLead',
  method: 'GET',
  url: '/leads/{id}',
  module: 'leads',
  scope: 'leads:read',
  summary: 'Get a lead',
  schema: { params: IdParams, response: { 200: Lead } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.leads.leads.get(principal, params.id),
})
