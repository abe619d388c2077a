import { defineRoute } from '../../../kernel/http/define-route.js'
import { Agent, IdParams, UpdateAgentBody } from '../agents.schemas.js'

export const updateAgent = defineRoute({
  operationId: 'updateAgent',
  method: 'PATCH',
  url: '/agents/{id}',
  module: 'agents',
  scope: 'write',
  summary: 'Update an agent',
  description:
    'Changes what is given; `tools` replaces the list (a tool keeps its id, and its stored headers when `headers` is left out, ' +
    'while its name stays). `status: disabled` refuses new runs. Runs already created keep the agent as it was when they were created.',
  schema: { params: IdParams, body: UpdateAgentBody, response: { 200: Agent } },
  errors: ['resource_not_found', 'invalid_reference', 'invalid_agent_tools', 'unprocessable'],
  handler: ({ params, body, principal, services }) => services.agents.agents.update(principal, params.id, body),
})
