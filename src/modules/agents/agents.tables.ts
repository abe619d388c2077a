import type { Mode } from '../../kernel/tenant.js'

export type AgentStatus = 'active' | 'disabled'
export type RunStatus = 'queued' | 'running' | 'requires_approval' | 'succeeded' | 'failed' | 'cancelled' | 'expired'
export type StepType = 'reasoning' | 'tool_call' | 'tool_result' | 'approval' | 'message' | 'error'
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'expired' | 'cancelled'

export interface AgentsTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string
  description: string | null
  instructions: string
  /** JSON AgentToolRow[]: the kernel's StoredTool plus id and approval policy. */
  tools: string
  knowledge_base_ids: string
  /** JSON Schema a JSON input must match, or null. */
  input_schema: string | null
  max_steps: number
  run_timeout_seconds: number
  approval_timeout_seconds: number
  /** JSON {provider, temperature}. */
  ai: string
  status: AgentStatus
  /** The secret every HTTP tool call of this agent is signed with (webhook scheme), sealed. */
  signing_secret_sealed: string
  metadata: string
  created_at: string
  updated_at: string
}

export interface AgentRunsTable {
  id: string
  workspace_id: string
  mode: Mode
  agent_id: string
  status: RunStatus
  /** JSON {text} or {json}. */
  input: string
  conversation_id: string | null
  metadata: string
  /** JSON of the agent as it was when the run was created: a run never changes engine mid-way. */
  agent_snapshot: string
  /** JSON {text, citations} once succeeded. */
  output: string | null
  /** JSON {code, detail} when failed, cancelled or expired. */
  error: string | null
  step_count: number
  tool_call_count: number
  prompt_tokens: number
  completion_tokens: number
  /** Who executes the run now: a worker id while it holds the run's lease. */
  worker_id: string | null
  lease_until: string | null
  deadline_at: string
  created_at: string
  started_at: string | null
  finished_at: string | null
  updated_at: string
}

export interface AgentRunStepsTable {
  id: string
  workspace_id: string
  mode: Mode
  run_id: string
  position: number
  type: StepType
  status: 'started' | 'completed' | 'failed'
  tool: string | null
  call_id: string | null
  /** JSON arguments of a tool call. */
  arguments: string | null
  /** JSON ToolCallResult of a completed call (tool_result), or null. */
  result: string | null
  idempotency_key: string | null
  approval_id: string | null
  text: string | null
  started_at: string
  completed_at: string | null
}

export interface AgentApprovalsTable {
  id: string
  workspace_id: string
  mode: Mode
  agent_id: string
  run_id: string
  step_id: string
  tool: string
  call_id: string
  arguments: string
  reason: string
  status: ApprovalStatus
  comment: string | null
  /** JSON of the arguments the approver edited, or null. */
  edited_arguments: string | null
  decided_by: string | null
  decided_at: string | null
  expires_at: string
  created_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    agents: AgentsTable
    agent_runs: AgentRunsTable
    agent_run_steps: AgentRunStepsTable
    agent_approvals: AgentApprovalsTable
  }
}
