import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { Agent, AgentRunSummary, Approval, type AgentRunSummaryT, type AgentT, type ApprovalT } from './agents.schemas.js'

const AGENT_EXAMPLE: AgentT = {
  id: 'agt_01JD0000000000000000000000',
  object: 'agent',
  name: 'Refund agent',
  description: 'Refunds orders under a limit, asks above it',
  instructions: 'Refund the order the customer names. Never refund twice.',
  tools: [
    {
      id: 'tool_01JD0000000000000000000000',
      type: 'http',
      name: 'refund_order',
      description: 'Refund an order by id, fully or an amount.',
      parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id'] },
      url: 'https://tools.example.com/refunds',
      method: 'POST',
      header_names: ['Authorization'],
      timeout_ms: 10000,
      approval: { mode: 'when', when: { argument: 'amount', operator: 'gt', value: 100 } },
    },
  ],
  knowledge_base_ids: [],
  input_schema: null,
  max_steps: 10,
  run_timeout_seconds: 300,
  approval_timeout_seconds: 86400,
  ai: { provider: null, temperature: null },
  status: 'active',
  metadata: {},
  created_at: '2026-11-26T09:00:00.000Z',
  updated_at: '2026-11-26T09:00:00.000Z',
}

const RUN_EXAMPLE: AgentRunSummaryT = {
  id: 'run_01JD0000000000000000000000',
  object: 'agent_run',
  agent_id: AGENT_EXAMPLE.id,
  status: 'succeeded',
  input: { text: 'Refund order ord_123, 40 euros' },
  conversation_id: null,
  metadata: {},
  output: { text: 'Refund order: status: refunded.', citations: [] },
  error: null,
  usage: { steps: 3, tool_calls: 1, tokens: null },
  pending_approval: null,
  created_at: '2026-11-26T09:05:00.000Z',
  started_at: '2026-11-26T09:05:00.050Z',
  finished_at: '2026-11-26T09:05:00.400Z',
}

const APPROVAL_EXAMPLE: ApprovalT = {
  id: 'apr_01JD0000000000000000000000',
  object: 'agent_approval',
  agent_id: AGENT_EXAMPLE.id,
  run_id: RUN_EXAMPLE.id,
  tool: 'refund_order',
  arguments: { order_id: 'ord_123', amount: 250 },
  reason: 'refund_order with amount 250 > 100 needs approval.',
  status: 'pending',
  comment: null,
  edited_arguments: null,
  decided_by: null,
  decided_at: null,
  expires_at: '2026-11-27T09:05:00.000Z',
  created_at: '2026-11-26T09:05:00.200Z',
}

const run = (status: AgentRunSummaryT['status'], extra: Partial<AgentRunSummaryT> = {}): AgentRunSummaryT => ({ ...RUN_EXAMPLE, status, ...extra })

/** Every event type of the agents module. */
export const AGENTS_EVENTS = defineEvents(
  'agents',
  { scope: 'read' },
  {
    'agent.created': eventType({ description: 'An agent was created.', schema: Agent, example: AGENT_EXAMPLE }),
    'agent.updated': eventType({ description: 'An agent changed (instructions, tools, limits, status); runs already created keep the agent as it was.', schema: Agent, example: AGENT_EXAMPLE }),
    'agent_run.created': eventType({ description: 'A run was queued.', schema: AgentRunSummary, example: run('queued', { output: null, started_at: null, finished_at: null }) }),
    'agent_run.started': eventType({ description: 'A worker started the run.', schema: AgentRunSummary, example: run('running', { output: null, finished_at: null }) }),
    'agent_run.requires_approval': eventType({
      description: 'The run stopped before a tool call its policy says a person must approve (`pending_approval`).',
      schema: AgentRunSummary,
      example: run('requires_approval', { output: null, finished_at: null, pending_approval: APPROVAL_EXAMPLE }),
    }),
    'agent_run.succeeded': eventType({ description: 'The run finished with an output.', schema: AgentRunSummary, example: RUN_EXAMPLE }),
    'agent_run.failed': eventType({
      description: 'The run ended with an error (step limit, timeout, AI provider); its postmortem is on getAgentRun.',
      schema: AgentRunSummary,
      example: run('failed', { output: null, error: { code: 'max_steps_exceeded', detail: 'The run took 10 steps without an answer.' } }),
    }),
    'agent_run.cancelled': eventType({
      description: 'The run was cancelled; a call in flight was aborted.',
      schema: AgentRunSummary,
      example: run('cancelled', { output: null, error: { code: 'cancelled', detail: 'Cancelled through the API.' } }),
    }),
    'agent_run.expired': eventType({
      description: 'Nobody decided an approval in time: the run ended.',
      schema: AgentRunSummary,
      example: run('expired', { output: null, error: { code: 'approval_expired', detail: 'The approval expired.' } }),
    }),
    'agent_approval.created': eventType({ description: 'A tool call waits for a person to approve or reject it.', schema: Approval, example: APPROVAL_EXAMPLE }),
    'agent_approval.resolved': eventType({
      description: 'An approval was approved, rejected, expired or closed by a cancellation.',
      schema: Approval,
      example: { ...APPROVAL_EXAMPLE, status: 'approved', decided_by: 'key_01JD0000000000000000000000', decided_at: '2026-11-26T09:10:00.000Z' },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof AGENTS_EVENTS> {}
}
