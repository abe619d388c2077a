import type { Config } from '../../../config.js'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { DryRunBody, DryRunStreamEvent, IdParams } from '../agents.schemas.js'

export const streamAgentDryRun = defineRoute({
  operationId: 'streamAgentDryRun',
  method: 'POST',
  url: '/agents/{id}/dry-run/stream',
  module: 'agents',
  scope: 'write',
  minRole: 'member', // tries the agent as configured; changes nothing
  summary: 'Dry-run an agent, streamed',
  description:
    'The dry-run of `POST /agents/{id}/dry-run` as Server-Sent Events, one per step as it happens; the last is `completed` with the ' +
    'whole dry-run. Resumable with `Last-Event-ID`; a client that leaves stops the work (docs/api-conventions.md, "Event streams").',
  sse: {
    heartbeatMs: (config: Config) => config.sseHeartbeatMs,
    events: {
      'step.started': '{step}: a step began (a tool call, with the request it would send)',
      'step.completed': '{step}: a step ended (reasoning, tool call, tool result, message, error)',
      'approval.required': '{approval, step}: a real run would stop here for a person; the dry-run goes on as if approved',
      completed: '{dry_run}: the whole dry-run, as POST /agents/{id}/dry-run answers it; the stream ends',
    },
  },
  schema: { params: IdParams, body: DryRunBody, response: { 200: DryRunStreamEvent } },
  errors: ['resource_not_found', 'agent_disabled', 'invalid_agent_input'],
  handler: async ({ params, body, principal, services, stream }) => {
    const result = await services.agents.dryRun(principal, params.id, body, { signal: stream.signal, emit: (e) => stream.send(e.event, e.data) })
    if (!stream.signal.aborted) stream.send('completed', { dry_run: result })
  },
})
