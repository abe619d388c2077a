import { defineRoute } from '../../../kernel/http/define-route.js'
import { ActivityList, IdParams, ListActivitiesQuery } from '../leads.schemas.js'

export const listLeadActivities = defineRoute({
  operationId: 'listLeadActivities',
  method: 'GET',
  url: '/leads/{id}/activities',
  module: 'leads',
  scope: 'leads:read',
  summary: "List a lead's activities",
  description: 'Newest first: notes, e-mails, calls, meetings and tasks people recorded, and the status changes, qualifications and syncs the service recorded.',
  schema: { params: IdParams, querystring: ListActivitiesQuery, response: { 200: ActivityList } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.leads.activities.list(principal, params.id, query),
})
