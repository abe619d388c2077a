import { fromJson } from '../../kernel/db/database.js'
import type { StepRecord } from './agent-executor.js'
import { toolsOf } from './agents.config.js'
import type { AgentRunSummaryT, AgentRunT, AgentT, ApprovalT } from './agents.schemas.js'
import type { AgentApprovalsTable, AgentRunsTable, AgentRunStepsTable, AgentsTable } from './agents.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export function agentView(r: AgentsTable): AgentT {
  return {
    id: r.id,
    object: 'agent',
    name: r.name,
    description: r.description,
    instructions: r.instructions,
    tools: toolsOf(r).map((t) => ({
      id: t.id,
      type: t.type,
      name: t.name,
      description: t.description,
      parameters: JSON.parse(t.parameters),
      url: t.url,
      method: t.method,
      header_names: t.header_names ? JSON.parse(t.header_names) : [],
      timeout_ms: t.timeout_ms,
      approval: t.approval,
    })),
    knowledge_base_ids: fromJson(r.knowledge_base_ids, []),
    input_schema: fromJson(r.input_schema, null),
    max_steps: Number(r.max_steps),
    run_timeout_seconds: Number(r.run_timeout_seconds),
    approval_timeout_seconds: Number(r.approval_timeout_seconds),
    ai: fromJson(r.ai, { provider: null, temperature: null }),
    status: r.status,
    metadata: fromJson(r.metadata, {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export function approvalView(r: AgentApprovalsTable): ApprovalT {
  return {
    id: r.id,
    object: 'agent_approval',
    agent_id: r.agent_id,
    run_id: r.run_id,
    tool: r.tool,
    arguments: fromJson(r.arguments, {}),
    reason: r.reason,
    status: r.status,
    comment: r.comment,
    edited_arguments: fromJson(r.edited_arguments, null),
    decided_by: r.decided_by,
    decided_at: r.decided_at,
    expires_at: r.expires_at,
    created_at: r.created_at,
  }
}

/** A stored step as the agent loop reads it (agent-executor.ts). */
export const stepRecord = (s: AgentRunStepsTable): StepRecord => ({
  id: s.id,
  position: Number(s.position),
  type: s.type,
  status: s.status,
  tool: s.tool,
  call_id: s.call_id,
  arguments: fromJson(s.arguments, null),
  result: fromJson(s.result, null),
  idempotency_key: s.idempotency_key,
  approval_id: s.approval_id,
  text: s.text,
})

export function stepView(s: AgentRunStepsTable): AgentRunT['steps'][number] {
  return { ...stepRecord(s), result: fromJson(s.result, null), started_at: s.started_at, completed_at: s.completed_at }
}

export function runSummaryView(r: AgentRunsTable, pending: AgentApprovalsTable | null, postmortemSteps?: AgentRunStepsTable[]): AgentRunSummaryT {
  const tokens = Number(r.prompt_tokens) + Number(r.completion_tokens) > 0 ? { prompt: Number(r.prompt_tokens), completion: Number(r.completion_tokens) } : null
  return {
    id: r.id,
    object: 'agent_run',
    agent_id: r.agent_id,
    status: r.status,
    input: fromJson(r.input, {}),
    conversation_id: r.conversation_id,
    metadata: fromJson(r.metadata, {}),
    output: fromJson(r.output, null),
    error: fromJson(r.error, null),
    usage: { steps: Number(r.step_count), tool_calls: Number(r.tool_call_count), tokens },
    pending_approval: pending ? approvalView(pending) : null,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    ...(postmortemSteps ? { postmortem: postmortemOf(r, postmortemSteps) } : {}),
  }
}

export function runView(r: AgentRunsTable, steps: AgentRunStepsTable[], pending: AgentApprovalsTable | null): AgentRunT {
  return { ...runSummaryView(r, pending), steps: steps.map(stepView), postmortem: postmortemOf(r, steps) }
}

const ms = (from: string, to: string | null): number | null => (to ? Math.max(0, Date.parse(to) - Date.parse(from)) : null)

/** For runs that ended badly: which step failed, why, and how long each step took. */
export function postmortemOf(r: AgentRunsTable, steps: AgentRunStepsTable[]): AgentRunT['postmortem'] {
  if (!['failed', 'cancelled', 'expired'].includes(r.status)) return null
  const error = fromJson<{ code: string; detail: string }>(r.error, { code: r.status, detail: '' })
  const failed = [...steps].reverse().find((s) => s.status === 'failed' || s.type === 'error')
  return {
    failed_step: failed ? Number(failed.position) : null,
    reason: error.code,
    detail: error.detail,
    duration_ms: ms(r.started_at ?? r.created_at, r.finished_at) ?? 0,
    step_durations_ms: steps.map((s) => ({ position: Number(s.position), type: s.type, duration_ms: ms(s.started_at, s.completed_at) })),
  }
}
