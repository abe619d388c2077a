import type { TokenUsage } from '../../kernel/ai/ai.js'
import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import { fromJson, toJson } from '../../kernel/db/database.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { callIdempotencyKey, callTool, type ToolCallResult } from '../../kernel/tools/tools.js'
import type { Decision, NewStep, PlannedCall, RunStore, StepRecord } from './agent-executor.js'
import type { AgentToolRow } from './agents.config.js'
import * as repo from './agents.repository.js'
import type { AgentApprovalsTable, AgentRunsTable, AgentRunStepsTable } from './agents.tables.js'
import { approvalView, runSummaryView, stepRecord } from './agents.views.js'

export interface ExpireApprovalPayload {
  workspace_id: string
  mode: Tenant['mode']
  approval_id: string
}

/** The run left `running` under the worker (cancelled): whatever the worker was writing is rolled back. */
export class RunMovedOn extends Error {
  constructor(runId: string) {
    super(`run ${runId} is no longer running`)
  }
}

/**
 * A run's steps in the database, each written in its own short transaction as it happens (with the run's
 * counters), and its calls made for real: signed, with an Idempotency-Key derived from run and step, and
 * aborted by `signal` (a cancellation). The unique (run, position) index makes a second writer of the same
 * run fail rather than interleave.
 */
export class DurableRunStore implements RunStore {
  constructor(
    private readonly k: Kernel,
    private readonly tenant: Tenant,
    private readonly run: AgentRunsTable,
    readonly steps: StepRecord[],
    private readonly signingSecret: string,
    private readonly expireJob: JobDefinition<ExpireApprovalPayload>,
    private readonly signal: AbortSignal,
    private readonly workerId: string,
  ) {}

  private row(step: NewStep, position: number): AgentRunStepsTable {
    return {
      id: newId('stp'),
      workspace_id: this.tenant.workspaceId,
      mode: this.tenant.mode,
      run_id: this.run.id,
      position,
      type: step.type,
      status: step.status ?? 'completed',
      tool: step.tool ?? null,
      call_id: step.call_id ?? null,
      arguments: step.arguments ? toJson(step.arguments) : null,
      result: step.result ? toJson(step.result) : null,
      idempotency_key: step.idempotency_key ?? null,
      approval_id: step.approval_id ?? null,
      text: step.text ?? null,
      started_at: iso(this.k.clock.now()),
      completed_at: step.status === 'started' ? null : iso(this.k.clock.now()),
    }
  }

  async append(step: NewStep): Promise<StepRecord> {
    const row = this.row(step, this.steps.length + 1)
    await this.k.transaction(sideOwner(this.tenant), async (tx) => {
      await repo.insertStep(tx, row)
      await repo.updateRun(tx, this.tenant, this.run.id, {
        step_count: row.position,
        ...(row.type === 'tool_call' ? { tool_call_count: this.steps.filter((s) => s.type === 'tool_call').length + 1 } : {}),
        updated_at: row.started_at,
      })
    })
    const rec = stepRecord(row)
    this.steps.push(rec)
    return rec
  }

  async complete(step: StepRecord, patch: Partial<Pick<StepRecord, 'status' | 'result' | 'text' | 'arguments'>>): Promise<void> {
    const now = iso(this.k.clock.now())
    await repo.updateStep(this.k.db, this.tenant, step.id, {
      ...(patch.status ? { status: patch.status } : {}),
      ...(patch.text !== undefined ? { text: patch.text } : {}),
      ...(patch.result !== undefined ? { result: toJson(patch.result) } : {}),
      completed_at: now,
    })
    Object.assign(step, patch)
  }

  startCall(tool: AgentToolRow, call: PlannedCall, args: Record<string, unknown>, approvalId: string | null): Promise<StepRecord> {
    const position = this.steps.length + 1
    return this.append({
      type: 'tool_call',
      status: 'started',
      tool: tool.name,
      call_id: call.call_id,
      arguments: args,
      approval_id: approvalId,
      idempotency_key: callIdempotencyKey(this.run.id, position, tool.name, args),
    })
  }

  /**
   * Renews the run's lease first: a worker that lost the run (stalled past its lease, so another took
   * over) sends nothing. Past that check the step's Idempotency-Key is what keeps a late duplicate harmless.
   */
  async send(tool: AgentToolRow, step: StepRecord): Promise<ToolCallResult> {
    const now = this.k.clock.now()
    const until = new Date(now.getTime() + this.k.config.jobLeaseSeconds * 1000)
    if (!(await repo.claimRun(this.k.db, this.tenant, this.run.id, this.workerId, iso(now), iso(until)))) throw new RunMovedOn(this.run.id)
    const kbIds = fromJson<{ knowledge_base_ids?: string[] }>(this.run.agent_snapshot, {}).knowledge_base_ids ?? []
    return callTool(
      this.k,
      tool,
      step.arguments ?? {},
      {
        tenant: this.tenant,
        callId: step.call_id!,
        idempotencyKey: step.idempotency_key!,
        conversationId: this.run.conversation_id,
        knowledgeBaseIds: kbIds,
        signal: this.signal,
      },
      tool.type === 'http' ? this.signingSecret : null,
    )
  }

  /** The approval, its step and the run's move to requires_approval, in one transaction with their events. */
  async requestApproval(tool: AgentToolRow, call: PlannedCall, reason: string): Promise<StepRecord> {
    const now = this.k.clock.now()
    const timeout = fromJson<{ approval_timeout_seconds?: number }>(this.run.agent_snapshot, {}).approval_timeout_seconds ?? 86_400
    const approval: AgentApprovalsTable = {
      id: newId('apr'),
      workspace_id: this.tenant.workspaceId,
      mode: this.tenant.mode,
      agent_id: this.run.agent_id,
      run_id: this.run.id,
      step_id: '',
      tool: tool.name,
      call_id: call.call_id,
      arguments: toJson(call.arguments),
      reason,
      status: 'pending',
      comment: null,
      edited_arguments: null,
      decided_by: null,
      decided_at: null,
      expires_at: iso(new Date(now.getTime() + timeout * 1000)),
      created_at: iso(now),
    }
    const step = this.row({ type: 'approval', status: 'started', tool: tool.name, call_id: call.call_id, arguments: call.arguments, approval_id: approval.id, text: reason }, this.steps.length + 1)
    approval.step_id = step.id
    await this.k.transaction(sideOwner(this.tenant), async (tx) => {
      await repo.insertStep(tx, step)
      await repo.insertApproval(tx, approval)
      const moved = await repo.transitionRun(tx, this.tenant, this.run.id, ['running'], { status: 'requires_approval', step_count: step.position, updated_at: approval.created_at })
      if (!moved) throw new RunMovedOn(this.run.id)
      await enqueue(tx, this.k.clock, this.expireJob, { workspace_id: this.tenant.workspaceId, mode: this.tenant.mode, approval_id: approval.id }, { runAt: new Date(approval.expires_at) })
      await this.k.events.emit(tx, this.tenant, 'agent_approval.created', approvalView(approval))
      const run = await repo.findRun(tx, this.tenant, this.run.id)
      await this.k.events.emit(tx, this.tenant, 'agent_run.requires_approval', runSummaryView(run!, approval))
    })
    const rec = stepRecord(step)
    this.steps.push(rec)
    return rec
  }

  countTokens(usage: TokenUsage): Promise<void> {
    return repo.addTokens(this.k.db, this.tenant, this.run.id, usage.prompt, usage.completion)
  }

  async decisionOf(approvalId: string): Promise<Decision> {
    const a = await repo.findApproval(this.k.db, this.tenant, approvalId)
    if (!a || a.status === 'pending') return { status: 'pending' }
    if (a.status === 'approved') return { status: 'approved', arguments: fromJson(a.edited_arguments, null) ?? fromJson(a.arguments, {}) }
    return { status: a.status, comment: a.comment }
  }
}
