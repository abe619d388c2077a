import { defineRoute } from '../../../kernel/http/define-route.js'
import { Agent, IdParams } from '../agents.schemas.js'

export const getAgent = defineRoute({
  operationId: 'getAgent',
  method: 'GET',
  url: '/agents/{id}',
  module: 'agents',
  scope: 'read',
  summary: 'Get an agent',
  schema: { params: IdParams, response: { 200: Agent } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.agents.agents.get(principal, params.id),
})
