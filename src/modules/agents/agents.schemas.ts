import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'
import { BuiltinToolInput, HttpToolInput } from '../../kernel/tools/tools.schemas.js'
import { Metadata } from '../inbox/inbox.schemas.js'
import { KnowledgeSearchResult } from '../knowledge/knowledge.search.schemas.js'

const DateTime = Type.String({ format: 'date-time' })
export const MAX_TOOLS = 20
export const LIMITS = { maxSteps: { min: 1, max: 50, default: 10 }, runTimeout: { min: 5, max: 86_400, default: 300 }, approvalTimeout: { min: 60, max: 604_800, default: 86_400 } }

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })
export const RunParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), run_id: Type.String({ minLength: 1, maxLength: 64, description: 'The run id (run_…).' }) },
  { additionalProperties: false },
)

export const ApprovalPolicy = Type.Object(
  {
    mode: Type.Union([Type.Literal('never'), Type.Literal('always'), Type.Literal('when')], {
      description: '`never` (default): the call runs at once; `always`: a person approves every call; `when`: only calls whose argument meets `when`.',
    }),
    when: Type.Optional(
      Type.Object(
        {
          argument: Type.String({ minLength: 1, maxLength: 64, description: 'A property of the tool parameters, e.g. `amount`.' }),
          operator: Type.Union(
            [
              Type.Literal('gt'),
              Type.Literal('gte'),
              Type.Literal('lt'),
              Type.Literal('lte'),
              Type.Literal('eq'),
              Type.Literal('ne'),
              Type.Literal('in'),
              Type.Literal('not_in'),
              Type.Literal('exists'),
            ],
            { description: 'Numbers compare numerically; eq/ne/in/not_in compare values; exists: the argument is present.' },
          ),
          value: Type.Optional(Type.Unknown({ description: 'A number, string or boolean; an array for in / not_in; none for exists.' })),
        },
        { additionalProperties: false, title: 'AgentApprovalCondition' },
      ),
    ),
  },
  { additionalProperties: false, title: 'AgentApprovalPolicy' },
)
export type ApprovalPolicyT = Static<typeof ApprovalPolicy>

const approvalField = { approval: Type.Optional(ApprovalPolicy) }
export const AgentToolInput = Type.Union(
  [
    Type.Object({ ...HttpToolInput.properties, ...approvalField }, { additionalProperties: false, title: 'AgentHttpToolInput' }),
    Type.Object({ ...BuiltinToolInput.properties, ...approvalField }, { additionalProperties: false, title: 'AgentBuiltinToolInput' }),
  ],
  { title: 'AgentToolInput' },
)
export type AgentToolInputT = Static<typeof AgentToolInput>

export const AgentTool = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('http'), Type.Literal('builtin')]),
    name: Type.String(),
    description: Type.String(),
    parameters: Type.Object({}, { additionalProperties: true }),
    url: Nullable(Type.String()),
    method: Nullable(Type.String()),
    header_names: Type.Array(Type.String(), { description: 'Headers sent with each call; values are stored encrypted and never shown.' }),
    timeout_ms: Nullable(Type.Integer()),
    approval: ApprovalPolicy,
  },
  { $id: 'AgentTool' },
)

export const AgentAiSettings = Type.Object(
  {
    provider: Nullable(Type.Union([Type.Literal('builtin'), Type.Literal('openai')], { description: 'Overrides AI_PROVIDER; null = the configured one.' })),
    temperature: Nullable(Type.Number({ minimum: 0, maximum: 2 })),
  },
  { additionalProperties: false, title: 'AgentAiSettings' },
)

const KnowledgeBaseIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 10, uniqueItems: true, description: 'Knowledge bases the agent cites and searches.' })
const InputSchema = Nullable(Type.Object({}, { additionalProperties: true, description: 'A JSON Schema a JSON `input` must match (422 otherwise); null accepts any input.' }))
const MaxSteps = Type.Integer({ minimum: LIMITS.maxSteps.min, maximum: LIMITS.maxSteps.max, description: `Engine steps a run may take (default ${LIMITS.maxSteps.default}); beyond, it fails.` })
const RunTimeout = Type.Integer({
  minimum: LIMITS.runTimeout.min,
  maximum: LIMITS.runTimeout.max,
  description: `Seconds a run may take from creation, waiting for approval excluded (default ${LIMITS.runTimeout.default}).`,
})
const ApprovalTimeout = Type.Integer({
  minimum: LIMITS.approvalTimeout.min,
  maximum: LIMITS.approvalTimeout.max,
  description: `Seconds an approval stays open before the run ends \`expired\` (default ${LIMITS.approvalTimeout.default}).`,
})
const AgentStatus = Type.Union([Type.Literal('active'), Type.Literal('disabled')], { title: 'AgentStatus', description: '`disabled`: new runs are refused (409); running ones finish.' })

export const Agent = Type.Object(
  {
    id: Type.String({ examples: ['agt_01JD0000000000000000000000'] }),
    object: Type.Literal('agent'),
    name: Type.String(),
    description: Nullable(Type.String()),
    instructions: Type.String(),
    tools: Type.Array(AgentTool),
    knowledge_base_ids: Type.Array(Type.String()),
    input_schema: InputSchema,
    max_steps: Type.Integer(),
    run_timeout_seconds: Type.Integer(),
    approval_timeout_seconds: Type.Integer(),
    ai: AgentAiSettings,
    status: AgentStatus,
    metadata: Metadata,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Agent' },
)
export type AgentT = Static<typeof Agent>
export const CreatedAgent = Type.Object(
  {
    ...Agent.properties,
    signing_secret: Type.String({ description: "The secret the agent's HTTP tool calls are signed with (webhook scheme, docs/tools.md). Shown once, here." }),
  },
  { $id: 'CreatedAgent' },
)

const agentInputFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  instructions: Type.Optional(Type.String({ maxLength: 8000 })),
  tools: Type.Optional(Type.Array(AgentToolInput, { maxItems: MAX_TOOLS, description: 'Replaces the list. A tool keeps its id when its name stays; omitted headers keep their stored values.' })),
  knowledge_base_ids: Type.Optional(KnowledgeBaseIds),
  input_schema: Type.Optional(InputSchema),
  max_steps: Type.Optional(MaxSteps),
  run_timeout_seconds: Type.Optional(RunTimeout),
  approval_timeout_seconds: Type.Optional(ApprovalTimeout),
  ai: Type.Optional(Type.Partial(AgentAiSettings, { additionalProperties: false, title: 'AgentAiSettingsInput' })),
  status: Type.Optional(AgentStatus),
  metadata: Type.Optional(Metadata),
}
export const CreateAgentBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), ...agentInputFields }, { additionalProperties: false, title: 'CreateAgentBody' })
export type CreateAgentBodyT = Static<typeof CreateAgentBody>
export const UpdateAgentBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })), ...agentInputFields },
  { additionalProperties: false, minProperties: 1, title: 'UpdateAgentBody' },
)
export type UpdateAgentBodyT = Static<typeof UpdateAgentBody>
export const AgentList = Page(Agent, 'Agent')
export const ListAgentsQuery = Type.Object({ ...PageQuery, status: Type.Optional(AgentStatus) }, { additionalProperties: false })

export const RunStatus = Type.Union(
  [Type.Literal('queued'), Type.Literal('running'), Type.Literal('requires_approval'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled'), Type.Literal('expired')],
  { title: 'AgentRunStatus', description: 'queued → running ⇄ requires_approval → succeeded | failed | cancelled | expired (docs/agents.md).' },
)

export const RunStep = Type.Object(
  {
    id: Type.String(),
    position: Type.Integer({ minimum: 1 }),
    type: Type.String({ description: 'reasoning, tool_call, tool_result, approval, message or error.' }),
    status: Type.String({ description: 'started, completed or failed.' }),
    tool: Nullable(Type.String()),
    call_id: Nullable(Type.String()),
    arguments: Nullable(Type.Object({}, { additionalProperties: true })),
    result: Nullable(Type.Object({}, { additionalProperties: true, description: 'The call result: ok, status, output, error, duration_ms.' })),
    idempotency_key: Nullable(Type.String({ description: 'Sent as Idempotency-Key: derived from run and step, the same when a resumed run sends the call again.' })),
    approval_id: Nullable(Type.String()),
    text: Nullable(Type.String()),
    started_at: DateTime,
    completed_at: Nullable(DateTime),
  },
  { $id: 'AgentRunStep' },
)

export const Approval = Type.Object(
  {
    id: Type.String({ examples: ['apr_01JD0000000000000000000000'] }),
    object: Type.Literal('agent_approval'),
    agent_id: Type.String(),
    run_id: Type.String(),
    tool: Type.String(),
    arguments: Type.Object({}, { additionalProperties: true }),
    reason: Type.String(),
    status: Type.String({ description: 'pending, approved, rejected, expired or cancelled (the run was cancelled).' }),
    comment: Nullable(Type.String()),
    edited_arguments: Nullable(Type.Object({}, { additionalProperties: true })),
    decided_by: Nullable(Type.String()),
    decided_at: Nullable(DateTime),
    expires_at: DateTime,
    created_at: DateTime,
  },
  { $id: 'AgentApproval' },
)
export type ApprovalT = Static<typeof Approval>

const Postmortem = Type.Object(
  {
    failed_step: Nullable(Type.Integer({ description: 'Position of the step that failed, if one did.' })),
    reason: Type.String(),
    detail: Type.String(),
    duration_ms: Type.Integer({ description: 'From start to end.' }),
    step_durations_ms: Type.Array(Type.Object({ position: Type.Integer(), type: Type.String(), duration_ms: Nullable(Type.Integer()) })),
  },
  { title: 'AgentRunPostmortem' },
)

const runFields = {
  id: Type.String({ examples: ['run_01JD0000000000000000000000'] }),
  object: Type.Literal('agent_run'),
  agent_id: Type.String(),
  status: RunStatus,
  input: Type.Object({ text: Type.Optional(Type.String()), json: Type.Optional(Type.Unknown()) }),
  conversation_id: Nullable(Type.String()),
  metadata: Metadata,
  output: Nullable(Type.Object({ text: Type.String(), citations: Type.Array(KnowledgeSearchResult) })),
  error: Nullable(Type.Object({ code: Type.String(), detail: Type.String() })),
  usage: Type.Object({
    steps: Type.Integer(),
    tool_calls: Type.Integer(),
    tokens: Nullable(Type.Object({ prompt: Type.Integer(), completion: Type.Integer() }, { description: 'When a model was used.' })),
  }),
  pending_approval: Nullable(Approval),
  created_at: DateTime,
  started_at: Nullable(DateTime),
  finished_at: Nullable(DateTime),
}
export const AgentRun = Type.Object({ ...runFields, steps: Type.Array(RunStep), postmortem: Nullable(Postmortem) }, { $id: 'AgentRun' })
export type AgentRunT = Static<typeof AgentRun>
export const AgentRunSummary = Type.Object(
  { ...runFields, postmortem: Type.Optional(Nullable(Postmortem)) },
  { $id: 'AgentRunSummary', description: 'A run without its steps; `postmortem` only with the deprecated `include=postmortem`.' },
)
export type AgentRunSummaryT = Static<typeof AgentRunSummary>
export const AgentRunList = Page(AgentRunSummary, 'AgentRunSummary')
export const ListAgentRunsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(RunStatus),
    include: Type.Optional(Type.Literal('postmortem', { description: 'Deprecated (until v3.0): use getAgentRun. Answers with Deprecation and Sunset headers.', deprecated: true })),
  },
  { additionalProperties: false },
)

export const CreateAgentRunBody = Type.Object(
  {
    input: Type.Union([Type.String({ minLength: 1, maxLength: 20_000 }), Type.Object({}, { additionalProperties: true })], {
      description: "Text, or a JSON object (checked against the agent's input_schema).",
    }),
    conversation_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An inbox conversation the output is posted to.' })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'CreateAgentRunBody' },
)
export type CreateAgentRunBodyT = Static<typeof CreateAgentRunBody>

export const ApproveAgentRunBody = Type.Object(
  {
    decision: Type.Union([Type.Literal('approve'), Type.Literal('reject')]),
    comment: Type.Optional(Type.String({ maxLength: 1000 })),
    arguments: Type.Optional(Type.Object({}, { additionalProperties: true, description: "Edited arguments (approve only), checked against the tool's parameters." })),
  },
  { additionalProperties: false, title: 'ApproveAgentRunBody' },
)
export type ApproveAgentRunBodyT = Static<typeof ApproveAgentRunBody>

export const ApprovalList = Page(Approval, 'AgentApproval')
export const ListAgentApprovalsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(
      Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('expired'), Type.Literal('cancelled')], {
        title: 'AgentApprovalStatus',
      }),
    ),
  },
  { additionalProperties: false },
)

export const DryRunBody = Type.Object({ input: CreateAgentRunBody.properties.input }, { additionalProperties: false, title: 'DryRunAgentBody' })
export type DryRunBodyT = Static<typeof DryRunBody>

const ToolRequestView = Type.Object(
  {
    method: Type.String(),
    url: Type.String(),
    headers: Type.Record(Type.String(), Type.String(), { description: "The tool's own header values show as `[hidden]`; the signature headers are real." }),
    body: Nullable(Type.String()),
  },
  { title: 'AgentToolRequest', description: 'The exact HTTP request the call would have sent.' },
)

export const DryRunStep = Type.Object(
  {
    ...RunStep.properties,
    request: Nullable(ToolRequestView),
  },
  { $id: 'AgentDryRunStep', description: 'A step as a run would record it; a tool_call carries the request it would have sent.' },
)
export type DryRunStepT = Static<typeof DryRunStep>

const DryRunApproval = Type.Object(
  {
    tool: Type.String(),
    arguments: Type.Object({}, { additionalProperties: true }),
    reason: Type.String(),
    step: Type.Integer({ description: 'Position of the approval step.' }),
  },
  { title: 'AgentDryRunApproval', description: 'An approval a real run would ask for here; the dry-run goes on as if it were given.' },
)

export const AgentDryRun = Type.Object(
  {
    object: Type.Literal('agent_dry_run'),
    agent_id: Type.String(),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
    input: runFields.input,
    output: runFields.output,
    error: runFields.error,
    steps: Type.Array(DryRunStep),
    approvals: Type.Array(DryRunApproval),
    usage: runFields.usage,
    duration_ms: Type.Integer(),
  },
  { $id: 'AgentDryRun', description: 'What a run would do; nothing was persisted and no tool was called.' },
)
export type AgentDryRunT = Static<typeof AgentDryRun>

export const DryRunStreamEvent = Type.Object(
  {
    step: Type.Optional(DryRunStep),
    approval: Type.Optional(DryRunApproval),
    dry_run: Type.Optional(AgentDryRun),
  },
  {
    $id: 'AgentDryRunStreamEvent',
    description: '`step.started` / `step.completed`: {step}; `approval.required`: {approval, step}; `completed`: {dry_run}; `error`: a problem.',
  },
)
