import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentDryRun, DryRunBody, IdParams } from '../agents.schemas.js'

export const dryRunAgent = defineRoute({
  operationId: 'dryRunAgent',
  method: 'POST',
  url: '/agents/{id}/dry-run',
  module: 'agents',
  scope: 'write',
  minRole: 'member', // tries the agent as configured; changes nothing
  summary: 'Dry-run an agent',
  description:
    'Runs the agent on `input` with every tool simulated: no request leaves the service, nothing is stored. Returns the steps a ' +
    'run would take, each tool call with the exact request it would send (header values hidden), and the approvals a run would ' +
    'ask for (the dry-run goes on as if they were given).',
  schema: { params: IdParams, body: DryRunBody, response: { 200: AgentDryRun } },
  errors: ['resource_not_found', 'agent_disabled', 'invalid_agent_input'],
  handler: ({ params, body, principal, services }) => services.agents.dryRun(principal, params.id, body),
})
