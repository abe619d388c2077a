import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import { deprecationHeaders } from '../../kernel/http/deprecation.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { validateArguments } from '../../kernel/tools/tools.js'
import { agentOr404 } from './agents-crud.service.js'
import { snapshotOf } from './agents.config.js'
import * as repo from './agents.repository.js'
import type { AgentRunSummaryT, AgentRunT, CreateAgentRunBodyT } from './agents.schemas.js'
import type { AgentApprovalsTable, AgentRunsTable, AgentRunStepsTable, RunStatus } from './agents.tables.js'
import { approvalView, runSummaryView, runView } from './agents.views.js'
import type { RunAgentPayload, RunningRuns } from './jobs/run-agent.job.js'
import { referenced } from '../../kernel/references.js'

/** `include=postmortem` on listAgentRuns: deprecated with 2.4.0's successor (getAgentRun), gone in v3.0. */
export const POSTMORTEM_DEPRECATED_AT = new Date('2026-11-24T00:00:00Z')
export const POSTMORTEM_SUNSET = new Date('2027-11-24T00:00:00Z')

const ENDED: RunStatus[] = ['succeeded', 'failed', 'cancelled', 'expired']

/** Runs: created queued (the worker executes them), read with their steps, cancelled. */
export class AgentRunsService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly running: RunningRuns,
    private readonly runJob: () => JobDefinition<RunAgentPayload>,
  ) {}

  /** `include=postmortem` (deprecated) adds each run's postmortem, which needs its steps. */
  async list(tenant: Tenant, agentId: string, q: { cursor?: string; limit?: number; status?: RunStatus; include?: 'postmortem' }): Promise<PageResult<AgentRunSummaryT>> {
    await agentOr404(this.k, tenant, agentId)
    type Listed = { run: AgentRunsTable; pending: AgentApprovalsTable | null; steps?: AgentRunStepsTable[] }
    return this.k.paginate<Listed, AgentRunSummaryT>({
      list: 'listAgentRuns',
      tenant,
      filters: { agent: agentId, status: q.status, include: q.include },
      query: q,
      fetch: async (page) => {
        const runs = await repo.listRuns(this.k.db, tenant, agentId, { ...page, status: q.status })
        const waiting = runs.filter((r) => r.status === 'requires_approval').map((r) => r.id)
        const pending = new Map((await repo.pendingApprovals(this.k.db, tenant, waiting)).map((a) => [a.run_id, a]))
        const out: Listed[] = []
        for (const run of runs) {
          out.push({ run, pending: pending.get(run.id) ?? null, ...(q.include === 'postmortem' ? { steps: await repo.stepsOf(this.k.db, tenant, run.id) } : {}) })
        }
        return out
      },
      key: (l) => l.run.id,
      view: (l) => runSummaryView(l.run, l.pending, l.steps),
    })
  }

  /** The headers of the deprecated `include=postmortem` (spec §9: removed in v3.0; docs/agents.md). */
  postmortemDeprecation(): Record<string, string> {
    return deprecationHeaders({
      since: POSTMORTEM_DEPRECATED_AT,
      sunset: POSTMORTEM_SUNSET,
      docs: `${this.k.config.docsBaseUrl}/agents/listAgentRuns`,
      successor: `${this.k.config.docsBaseUrl}/agents/getAgentRun`,
    })
  }

  async get(tenant: Tenant, agentId: string, runId: string): Promise<AgentRunT> {
    const run = await runOr404(this.k, tenant, agentId, runId)
    return this.viewOf(tenant, run)
  }

  async create(tenant: Tenant, agentId: string, body: CreateAgentRunBodyT): Promise<AgentRunT> {
    const agent = await agentOr404(this.k, tenant, agentId)
    if (agent.status !== 'active') throw new AppError('agent_disabled', `Agent ${agent.id} is disabled: enable it (PATCH status: active) to run it.`)
    const input = inputOf(agent.input_schema, body.input as string | Record<string, unknown>)
    const conversationId = body.conversation_id
    if (conversationId) await referenced('/body/conversation_id', () => this.services.inbox.conversations.get(tenant, conversationId))
    const now = this.k.clock.now()
    const row: AgentRunsTable = {
      id: newId('run'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      agent_id: agent.id,
      status: 'queued',
      input: toJson(input),
      conversation_id: body.conversation_id ?? null,
      metadata: toJson(body.metadata ?? {}),
      agent_snapshot: toJson(snapshotOf(agent)),
      output: null,
      error: null,
      step_count: 0,
      tool_call_count: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      worker_id: null,
      lease_until: null,
      deadline_at: iso(new Date(now.getTime() + Number(agent.run_timeout_seconds) * 1000)),
      created_at: iso(now),
      started_at: null,
      finished_at: null,
      updated_at: iso(now),
    }
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertRun(tx, row)
      await enqueue(tx, this.k.clock, this.runJob(), { workspace_id: tenant.workspaceId, mode: tenant.mode, run_id: row.id })
      await this.k.events.emit(tx, tenant, 'agent_run.created', runSummaryView(row, null))
      return runView(row, [], null)
    })
  }

  /**
   * Idempotent: a cancelled run answers as it is. A run waiting for approval has its approval closed; a
   * running one is aborted — at once in this process, within a watch tick (250 ms) in another.
   */
  async cancel(tenant: Tenant, agentId: string, runId: string): Promise<AgentRunT> {
    const run = await runOr404(this.k, tenant, agentId, runId)
    if (run.status === 'cancelled') return this.viewOf(tenant, run)
    if (ENDED.includes(run.status)) throw new AppError('invalid_run_transition', `Run ${run.id} already ended (${run.status}); only a queued, running or waiting run can be cancelled.`)
    const now = iso(this.k.clock.now())
    let moved = false
    const view = await this.k.transaction(tenant, async (tx) => {
      const error = { code: 'cancelled', detail: 'Cancelled through the API.' }
      if (!(await repo.transitionRun(tx, tenant, run.id, ['queued', 'running', 'requires_approval'], { status: 'cancelled', error: toJson(error), finished_at: now, updated_at: now }))) {
        // Lost a race: the run ended (or was cancelled) meanwhile; answer what it is now.
        const current = (await repo.findRun(tx, tenant, run.id))!
        if (current.status !== 'cancelled') throw new AppError('invalid_run_transition', `Run ${run.id} already ended (${current.status}).`)
        return this.viewOf(tenant, current, tx)
      }
      for (const a of await repo.pendingApprovals(tx, tenant, [run.id])) {
        await repo.decideApproval(tx, tenant, a.id, { status: 'cancelled', decided_at: now })
        await repo.updateStep(tx, tenant, a.step_id, { status: 'failed', text: 'Approval closed: the run was cancelled.', completed_at: now })
        await this.k.events.emit(tx, tenant, 'agent_approval.resolved', approvalView({ ...a, status: 'cancelled', decided_at: now }))
      }
      const next = (await repo.findRun(tx, tenant, run.id))!
      await this.k.events.emit(tx, tenant, 'agent_run.cancelled', runSummaryView(next, null))
      moved = true
      return this.viewOf(tenant, next, tx)
    })
    if (moved) this.running.abort(run.id)
    return view
  }

  async viewOf(tenant: Tenant, run: AgentRunsTable, db = this.k.db): Promise<AgentRunT> {
    const steps = await repo.stepsOf(db, tenant, run.id)
    const pending = run.status === 'requires_approval' ? ((await repo.pendingApprovals(db, tenant, [run.id]))[0] ?? null) : null
    return runView(run, steps, pending)
  }
}

export async function runOr404(k: Kernel, tenant: Tenant, agentId: string, runId: string, db = k.db): Promise<AgentRunsTable> {
  await agentOr404(k, tenant, agentId, db)
  const run = await repo.findRun(db, tenant, runId, agentId)
  if (!run) throw notFound('agent run', runId)
  return run
}

/** A run's stored input: {text} or {json}; a JSON input must match the agent's input_schema, a text input is refused when there is one. */
export function inputOf(inputSchema: string | null, input: string | Record<string, unknown>): { text?: string; json?: unknown } {
  if (inputSchema === null) return typeof input === 'string' ? { text: input } : { json: input }
  if (typeof input === 'string') {
    throw new AppError('invalid_agent_input', 'This agent takes a JSON object as input (its input_schema); text was given.', {
      errors: [{ pointer: '/body/input', detail: "must be an object matching the agent's input_schema" }],
    })
  }
  const schema = JSON.parse(inputSchema) as Record<string, unknown>
  const checked = validateArguments({ ...schema, type: schema.type ?? 'object' }, input)
  if (!checked.ok) {
    const errors = checked.errors.map((e) => ({ pointer: `/body/input${e.pointer === '/' ? '' : e.pointer}`, detail: e.detail }))
    throw new AppError('invalid_agent_input', `The input does not match the agent's input_schema: ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`, { errors })
  }
  return { json: checked.value }
}
