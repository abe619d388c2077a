import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentRun, RunParams } from '../agents.schemas.js'

export const getAgentRun = defineRoute({
  operationId: 'getAgentRun',
  method: 'GET',
  url: '/agents/{id}/runs/{run_id}',
  module: 'agents',
  scope: 'read',
  summary: 'Get an agent run',
  description: 'The run with its ordered steps, its pending approval, its usage and, when it ended badly, its postmortem.',
  schema: { params: RunParams, response: { 200: AgentRun } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.agents.runs.get(principal, params.id, params.run_id),
})
