import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentRun, ApproveAgentRunBody, RunParams } from '../agents.schemas.js'

export const approveAgentRun = defineRoute({
  operationId: 'approveAgentRun',
  method: 'POST',
  url: '/agents/{id}/runs/{run_id}/approve',
  module: 'agents',
  scope: 'write',
  minRole: 'member', // a person in the loop approves; configuring the agent is admins'
  summary: "Decide a run's pending approval",
  description:
    "`decision: approve` (optionally with edited `arguments`, checked against the tool's parameters) or `reject`, with an optional " +
    '`comment`. The run resumes exactly once: of concurrent decisions one wins, the others get 409 `approval_not_pending`, as does ' +
    'a decision on a run that is not waiting. A rejected call is not made; the agent continues knowing it was refused.',
  schema: { params: RunParams, body: ApproveAgentRunBody, response: { 200: AgentRun } },
  errors: ['resource_not_found', 'approval_not_pending'],
  handler: ({ params, body, principal, services }) => services.agents.approvals.decide(principal, params.id, params.run_id, body),
})
