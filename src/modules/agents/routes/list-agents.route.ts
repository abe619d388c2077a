import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentList, ListAgentsQuery } from '../agents.schemas.js'

export const listAgents = defineRoute({
  operationId: 'listAgents',
  method: 'GET',
  url: '/agents',
  module: 'agents',
  scope: 'read',
  summary: 'List agents',
  description: 'Newest first; `status` filters active or disabled agents.',
  schema: { querystring: ListAgentsQuery, response: { 200: AgentList } },
  handler: ({ query, principal, services }) => services.agents.agents.list(principal, query),
})
