import { defineRoute } from '../../../kernel/http/define-route.js'
import { AgentRun, CreateAgentRunBody, IdParams } from '../agents.schemas.js'

export const createAgentRun = defineRoute({
  operationId: 'createAgentRun',
  method: 'POST',
  url: '/agents/{id}/runs',
  module: 'agents',
  scope: 'write',
  minRole: 'member', // running an agent is day-to-day; configuring it is not
  summary: 'Start an agent run',
  description:
    "Queues a run on `input` (text, or JSON checked against the agent's `input_schema`); a worker executes it as a durable job " +
    '(docs/agents.md: states, steps, approvals, crash recovery). With `conversation_id` the output is posted to that conversation. ' +
    'With an Idempotency-Key a retry returns the same run instead of starting a second one.',
  schema: { params: IdParams, body: CreateAgentRunBody, response: { 201: AgentRun } },
  errors: ['resource_not_found', 'invalid_reference', 'agent_disabled', 'invalid_agent_input'],
  handler: ({ params, body, principal, services }) => services.agents.runs.create(principal, params.id, body),
})
