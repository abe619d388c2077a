import { defineRoute } from '../../../kernel/http/define-route.js'
import { Usage, UsageQuery, WorkspaceIdParams } from '../workspaces.schemas.js'

export const getWorkspaceUsage = defineRoute({
  operationId: 'getWorkspaceUsage',
  method: 'GET',
  url: '/workspaces/{id}/usage',
  module: 'workspaces',
  scope: 'read',
  summary: 'API requests per day and module, plus module counters, for a period',
  description: 'Period in UTC days, `from`..`to` inclusive, at most 366 days; defaults to the last 30 days.',
  schema: { params: WorkspaceIdParams, querystring: UsageQuery, response: { 200: Usage } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.workspaces.usage(principal, params.id, query),
})
