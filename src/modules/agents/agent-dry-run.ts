import { aiEngineFor, type TokenUsage } from '../../kernel/ai/ai.js'
import { iso } from '../../kernel/clock.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { callIdempotencyKey, previewToolCall, type ToolCallResult, type ToolRequest } from '../../kernel/tools/tools.js'
import { execute, type Decision, type NewStep, type PlannedCall, type RunStore, type StepRecord } from './agent-executor.js'
import { citationsOf, passagesFor, sourceOf, textOf } from './agent-input.js'
import { snapshotOf, type AgentToolRow } from './agents.config.js'
import type { AgentDryRunT, DryRunStepT } from './agents.schemas.js'
import type { AgentsTable } from './agents.tables.js'

/** What a streamed dry-run sends as it goes (agent-dry-run.ts → the SSE route). */
export type DryRunEvent =
  | { event: 'step.started'; data: { step: DryRunStepT } }
  | { event: 'step.completed'; data: { step: DryRunStepT } }
  | { event: 'approval.required'; data: { approval: AgentDryRunT['approvals'][number]; step: DryRunStepT } }

/**
 * The agent loop with every effect replaced: steps live in memory, a tool call is previewed (its exact
 * request built, header values hidden) and answered with a simulated result, an approval is shown and
 * taken as given so the whole plan is visible. Nothing is written and no request leaves the service —
 * not even the knowledge gap a real run's search may record.
 */
class DryRunStore implements RunStore {
  readonly steps: StepRecord[] = []
  readonly requests = new Map<string, ToolRequest | null>()
  readonly approvals: AgentDryRunT['approvals'] = []
  readonly times = new Map<string, { started_at: string; completed_at: string | null }>()
  tokens: TokenUsage | null = null

  constructor(
    private readonly k: Kernel,
    private readonly tenant: Tenant,
    private readonly scope: string,
    private readonly secret: string,
    private readonly emit: (e: DryRunEvent) => void,
  ) {}

  view(s: StepRecord): DryRunStepT {
    const t = this.times.get(s.id)!
    return { ...s, result: s.result as DryRunStepT['result'], request: this.requests.get(s.id) ?? null, started_at: t.started_at, completed_at: t.completed_at }
  }

  private record(step: NewStep): StepRecord {
    const rec: StepRecord = {
      id: newId('stp'),
      position: this.steps.length + 1,
      type: step.type,
      status: step.status ?? 'completed',
      tool: step.tool ?? null,
      call_id: step.call_id ?? null,
      arguments: step.arguments ?? null,
      result: step.result ?? null,
      idempotency_key: step.idempotency_key ?? null,
      approval_id: step.approval_id ?? null,
      text: step.text ?? null,
    }
    const now = iso(this.k.clock.now())
    this.times.set(rec.id, { started_at: now, completed_at: rec.status === 'started' ? null : now })
    this.steps.push(rec)
    return rec
  }

  async append(step: NewStep): Promise<StepRecord> {
    const rec = this.record(step)
    this.emit({ event: rec.status === 'started' ? 'step.started' : 'step.completed', data: { step: this.view(rec) } })
    return rec
  }

  async complete(step: StepRecord, patch: Partial<Pick<StepRecord, 'status' | 'result' | 'text' | 'arguments'>>): Promise<void> {
    Object.assign(step, patch)
    this.times.get(step.id)!.completed_at = iso(this.k.clock.now())
    this.emit({ event: 'step.completed', data: { step: this.view(step) } })
  }

  async startCall(tool: AgentToolRow, call: PlannedCall, args: Record<string, unknown>, approvalId: string | null): Promise<StepRecord> {
    const position = this.steps.length + 1
    const key = callIdempotencyKey(this.scope, position, tool.name, args)
    const preview = previewToolCall(this.k, tool, args, { tenant: this.tenant, callId: call.call_id, idempotencyKey: key }, tool.type === 'http' ? this.secret : null)
    const rec = this.record({ type: 'tool_call', status: 'started', tool: tool.name, call_id: call.call_id, arguments: preview.arguments, approval_id: approvalId, idempotency_key: key })
    this.requests.set(rec.id, preview.request)
    this.emit({ event: 'step.started', data: { step: this.view(rec) } })
    return rec
  }

  /** Never sends: a valid call gets a simulated success, an invalid one the error the real call would get. */
  async send(tool: AgentToolRow, step: StepRecord): Promise<ToolCallResult> {
    const preview = previewToolCall(this.k, tool, step.arguments ?? {}, { tenant: this.tenant, callId: step.call_id!, idempotencyKey: step.idempotency_key! }, null)
    return {
      call_id: step.call_id!,
      name: tool.name,
      arguments: preview.arguments,
      ok: preview.error === null,
      status: null,
      output: preview.error ? null : { simulated: true, detail: `Dry-run: ${tool.name} was not called.` },
      error: preview.error,
      duration_ms: 0,
    }
  }

  async requestApproval(tool: AgentToolRow, call: PlannedCall, reason: string): Promise<StepRecord> {
    const rec = this.record({ type: 'approval', status: 'started', tool: tool.name, call_id: call.call_id, arguments: call.arguments, text: reason })
    const approval = { tool: tool.name, arguments: call.arguments, reason, step: rec.position }
    this.approvals.push(approval)
    this.emit({ event: 'approval.required', data: { approval, step: this.view(rec) } })
    return rec
  }

  async decisionOf(): Promise<Decision> {
    const asked = this.steps[this.steps.length - 1]
    return { status: 'approved', arguments: asked.arguments ?? {} }
  }

  async countTokens(usage: TokenUsage): Promise<void> {
    this.tokens = { prompt: (this.tokens?.prompt ?? 0) + usage.prompt, completion: (this.tokens?.completion ?? 0) + usage.completion }
  }
}

/**
 * Runs `agent` on `input` with nothing persisted. `signal` stops it (a streaming client left); the agent's
 * run timeout applies as to a real run.
 */
export async function dryRun(
  k: Kernel,
  services: Services,
  tenant: Tenant,
  agent: AgentsTable,
  input: { text?: string; json?: unknown },
  opts: { signal?: AbortSignal; emit?: (e: DryRunEvent) => void } = {},
): Promise<AgentDryRunT> {
  const snapshot = snapshotOf(agent)
  const started = k.clock.now()
  const store = new DryRunStore(k, tenant, `dry_${newId('run')}`, k.secrets.open(agent.signing_secret_sealed, agent.id), opts.emit ?? (() => {}))
  const timeout = AbortSignal.timeout(Number(agent.run_timeout_seconds) * 1000)
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
  const text = textOf(input)
  const passages = await passagesFor(services, tenant, snapshot.knowledge_base_ids, text, { recordGaps: false })
  const outcome = await execute({ snapshot, engine: aiEngineFor(k, snapshot.ai.provider), inputText: text, passages: passages.map(sourceOf), store, signal })
  const failed =
    outcome.kind === 'failed'
      ? timeout.aborted
        ? { code: 'run_timeout', detail: `The dry-run took longer than the agent's run timeout (${agent.run_timeout_seconds} s).` }
        : { code: outcome.code, detail: outcome.detail }
      : null
  const answer = outcome.kind === 'answer' ? outcome : null
  if (answer) await store.append({ type: 'message', text: answer.text })
  else if (failed) await store.append({ type: 'error', status: 'failed', text: `${failed.code}: ${failed.detail}` })
  return {
    object: 'agent_dry_run',
    agent_id: agent.id,
    status: answer ? 'succeeded' : 'failed',
    input,
    output: answer ? { text: answer.text, citations: citationsOf(passages, answer.sources) } : null,
    error: failed,
    steps: store.steps.map((s) => store.view(s)),
    approvals: store.approvals,
    usage: { steps: store.steps.length, tool_calls: store.steps.filter((s) => s.type === 'tool_call').length, tokens: store.tokens },
    duration_ms: k.clock.now().getTime() - started.getTime(),
  }
}
