import { defineRoute } from '../../../kernel/http/define-route.js'
import { LeadList, ListLeadsQuery } from '../leads.schemas.js'

export const listLeads = defineRoute({
  operationId: 'listLeads',
  method: 'GET',
  url: '/leads',
  module: 'leads',
  scope: 'leads:read',
  summary: 'List leads',
  description: 'Newest first. Filters: `status`, `owner_id`, `source`, `email`, `min_score` / `max_score`, `updated_after`.',
  schema: { querystring: ListLeadsQuery, response: { 200: LeadList } },
  handler: ({ query, principal, services }) => services.leads.leads.list(principal, query),
})
