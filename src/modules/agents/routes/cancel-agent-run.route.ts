import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentRun, RunParams } from '../agents.schemas.js'

export const cancelAgentRun = defineRoute({
  operationId: 'cancelAgentRun',
  method: 'POST',
  url: '/agents/{id}/runs/{run_id}/cancel',
  module: 'agents',
  scope: 'write',
  minRole: 'member',
  summary: 'Cancel an agent run',
  description:
    'Idempotent: a cancelled run answers as it is. A queued run never starts; a running one is stopped and its tool call in flight ' +
    'aborted; a pending approval is closed (`cancelled`). A run that already succeeded, failed or expired → 409 `invalid_run_transition`.',
  schema: { params: RunParams, response: { 200: AgentRun } },
  errors: ['resource_not_found', 'invalid_run_transition'],
  handler: ({ params, principal, services }) => services.agents.runs.cancel(principal, params.id, params.run_id),
})
