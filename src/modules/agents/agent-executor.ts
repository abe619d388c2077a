import type { AiEngine, AiSource, AiTurn, TokenUsage, ToolResultInput } from '../../kernel/ai/ai.js'
import { toolSpecOf, type ToolCallResult } from '../../kernel/tools/tools.js'
import { approvalReason, type AgentSnapshot, type AgentToolRow } from './agents.config.js'
import type { StepType } from './agents.tables.js'

// The agent loop, the same for durable runs (agent-run.store.ts: every step in the database, resumable)
// and dry-runs (agent-dry-run.ts: steps in memory, tools simulated). It works only from the recorded
// steps, never from memory of an earlier attempt, so a resumed run continues exactly where the last
// recorded step left it:
//   - a `reasoning` step records the engine's decision (the calls it asked for) before any is made;
//   - a call needing approval gets an `approval` step and the run stops until it is decided;
//   - a `tool_call` step is recorded (with its Idempotency-Key) before it is sent, and completed with a
//     `tool_result` step after; a `tool_call` left `started` by a crash is sent again with the same key;
//   - only when every call of the last decision has its result is the engine asked again.

export interface StepRecord {
  id: string
  position: number
  type: StepType
  status: 'started' | 'completed' | 'failed'
  tool: string | null
  call_id: string | null
  arguments: Record<string, unknown> | null
  result: ToolCallResult | null
  idempotency_key: string | null
  approval_id: string | null
  text: string | null
}

export type NewStep = Omit<StepRecord, 'id' | 'position' | 'status' | 'tool' | 'call_id' | 'arguments' | 'result' | 'idempotency_key' | 'approval_id' | 'text'> &
  Partial<Pick<StepRecord, 'status' | 'tool' | 'call_id' | 'arguments' | 'result' | 'idempotency_key' | 'approval_id' | 'text'>>

export interface PlannedCall {
  call_id: string
  name: string
  arguments: Record<string, unknown>
}

/** What a decided approval says; `pending` stops the loop. */
export type Decision = { status: 'pending' } | { status: 'approved'; arguments: Record<string, unknown> } | { status: 'rejected' | 'expired' | 'cancelled'; comment: string | null }

/** Where steps go and how calls are made: the database and real calls, or memory and simulations. */
export interface RunStore {
  readonly steps: StepRecord[]
  append(step: NewStep): Promise<StepRecord>
  complete(step: StepRecord, patch: Partial<Pick<StepRecord, 'status' | 'result' | 'text' | 'arguments'>>): Promise<void>
  /** Records the tool_call step (with its Idempotency-Key) before the call; returns the step. */
  startCall(tool: AgentToolRow, call: PlannedCall, args: Record<string, unknown>, approvalId: string | null): Promise<StepRecord>
  /** Sends (or simulates) a recorded call. Never throws for a tool failure. */
  send(tool: AgentToolRow, step: StepRecord): Promise<ToolCallResult>
  /** Asks a person (durable: creates the approval and stops) or shows it (dry-run: approved at once). */
  requestApproval(tool: AgentToolRow, call: PlannedCall, reason: string): Promise<StepRecord>
  decisionOf(approvalId: string): Promise<Decision>
  /** Adds the tokens a model reported for one step to the run's usage. */
  countTokens(usage: TokenUsage): Promise<void>
}

export type Outcome = { kind: 'answer'; text: string; sources: string[] } | { kind: 'waiting' } | { kind: 'failed'; code: string; detail: string }

export interface ExecuteInput {
  snapshot: AgentSnapshot
  engine: AiEngine
  inputText: string
  passages: AiSource[]
  store: RunStore
  signal: AbortSignal
}

export async function execute(x: ExecuteInput): Promise<Outcome> {
  const { store, snapshot } = x
  for (;;) {
    if (x.signal.aborted) return { kind: 'failed', code: 'cancelled', detail: 'The run was cancelled.' }
    const decision = lastDecision(store.steps)
    const open = decision ? plannedCalls(decision).filter((c) => !hasResult(store.steps, c.call_id)) : []
    if (open.length > 0) {
      const r = await settle(x, open[0])
      if (r) return r
      continue
    }
    const decisions = store.steps.filter((s) => s.type === 'reasoning').length
    if (decisions >= snapshot.max_steps) {
      return { kind: 'failed', code: 'max_steps_exceeded', detail: `The run took ${decisions} engine steps without an answer (max_steps ${snapshot.max_steps}).` }
    }
    const step = await x.engine.respond({
      instructions: snapshot.instructions,
      transcript: [{ role: 'customer', text: x.inputText }] as AiTurn[],
      passages: x.passages,
      tools: decisions + 1 < snapshot.max_steps ? snapshot.tools.map(toolSpecOf) : [],
      toolResults: toolResults(store.steps),
      temperature: snapshot.ai.temperature,
    })
    if (step.usage) await store.countTokens(step.usage)
    if (step.kind === 'answer') return { kind: 'answer', text: step.content, sources: step.sources.filter((s) => s.kind === 'passage').map((s) => s.id) }
    // Call ids are unique within the run (a model may number each answer's calls from 1 again).
    const used = new Set(store.steps.flatMap((s) => (s.type === 'reasoning' ? plannedCalls(s).map((c) => c.call_id) : [])))
    const calls: PlannedCall[] = step.calls.map((c) => {
      let id = c.call_id
      for (let n = 2; used.has(id); n++) id = `${c.call_id}_${n}`
      used.add(id)
      return { call_id: id, name: c.name, arguments: c.arguments }
    })
    await store.append({ type: 'reasoning', status: 'completed', text: `Calling ${calls.map((c) => c.name).join(', ')}.`, arguments: { calls } })
  }
}

/** One planned call to its result: unknown tool, approval (asked, waiting, decided), then the call itself. */
async function settle(x: ExecuteInput, call: PlannedCall): Promise<Outcome | null> {
  const { store } = x
  const tool = x.snapshot.tools.find((t) => t.name === call.name)
  if (!tool) {
    await store.append({ type: 'tool_result', status: 'failed', tool: call.name, call_id: call.call_id, result: failure(call, 'unknown_tool', `The agent has no tool named '${call.name}'.`) })
    return null
  }
  let args = call.arguments
  let approvalId: string | null = null
  const reason = approvalReason(tool, call.arguments)
  if (reason) {
    const asked = store.steps.find((s) => s.type === 'approval' && s.call_id === call.call_id) ?? (await store.requestApproval(tool, call, reason))
    approvalId = asked.approval_id
    const d = await store.decisionOf(asked.approval_id!)
    if (d.status === 'pending') return { kind: 'waiting' }
    if (asked.status === 'started') await store.complete(asked, { status: d.status === 'approved' ? 'completed' : 'failed', text: `Approval ${d.status}.` })
    if (d.status !== 'approved') {
      const detail = d.status === 'rejected' ? `A person rejected this call${d.comment ? `: ${d.comment}` : '.'}` : `The approval ${d.status}.`
      await store.append({ type: 'tool_result', status: 'failed', tool: call.name, call_id: call.call_id, result: failure(call, `approval_${d.status}`, detail) })
      return d.status === 'rejected' ? null : { kind: 'failed', code: `approval_${d.status}`, detail }
    }
    args = d.arguments
  }
  const started = store.steps.find((s) => s.type === 'tool_call' && s.call_id === call.call_id) ?? (await store.startCall(tool, call, args, approvalId))
  const result = await store.send(tool, started)
  await store.complete(started, { status: result.error?.code === 'cancelled' ? 'failed' : 'completed' })
  if (result.error?.code === 'cancelled') return { kind: 'failed', code: 'cancelled', detail: 'The run was cancelled during a tool call; the call was aborted.' }
  await store.append({ type: 'tool_result', status: result.ok ? 'completed' : 'failed', tool: call.name, call_id: call.call_id, result })
  return null
}

const lastDecision = (steps: StepRecord[]) => [...steps].reverse().find((s) => s.type === 'reasoning')
const plannedCalls = (s: StepRecord): PlannedCall[] => (s.arguments as { calls?: PlannedCall[] } | null)?.calls ?? []
const hasResult = (steps: StepRecord[], callId: string) => steps.some((s) => s.type === 'tool_result' && s.call_id === callId)

function toolResults(steps: StepRecord[]): ToolResultInput[] {
  return steps
    .filter((s) => s.type === 'tool_result' && s.result)
    .map((s) => ({ call_id: s.call_id!, name: s.tool!, arguments: s.result!.arguments, ok: s.result!.ok, output: s.result!.output, error: s.result!.error }))
}

const failure = (call: PlannedCall, code: string, detail: string): ToolCallResult => ({
  call_id: call.call_id,
  name: call.name,
  arguments: call.arguments,
  ok: false,
  status: null,
  output: null,
  error: { code, detail },
  duration_ms: 0,
})
