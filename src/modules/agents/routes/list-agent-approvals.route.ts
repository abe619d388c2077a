import { defineRoute } from '../../../kernel/http/define-route.js'
import { ApprovalList, IdParams, ListAgentApprovalsQuery } from '../agents.schemas.js'

export const listAgentApprovals = defineRoute({
  operationId: 'listAgentApprovals',
  method: 'GET',
  url: '/agents/{id}/approvals',
  module: 'agents',
  scope: 'read',
  summary: "List an agent's approvals",
  description: 'Newest first; `status` filters (pending, approved, rejected, expired, cancelled).',
  schema: { params: IdParams, querystring: ListAgentApprovalsQuery, response: { 200: ApprovalList } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.agents.approvals.list(principal, params.id, query),
})
