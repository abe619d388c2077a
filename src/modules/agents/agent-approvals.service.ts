import { iso } from '../../kernel/clock.js'
import { fromJson, toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { validateArguments } from '../../kernel/tools/tools.js'
import { agentOr404 } from './agents-crud.service.js'
import type { AgentSnapshot } from './agents.config.js'
import * as repo from './agents.repository.js'
import type { AgentRunT, ApprovalT, ApproveAgentRunBodyT } from './agents.schemas.js'
import type { ApprovalStatus } from './agents.tables.js'
import { approvalView, runSummaryView } from './agents.views.js'
import { runOr404, type AgentRunsService } from './agent-runs.service.js'
import type { RunAgentPayload } from './jobs/run-agent.job.js'

/**
 * Approvals: a person's decision resumes a waiting run exactly once. The decision is a guarded update
 * (`where status = 'pending'`) in the transaction that moves the run back to `running` and enqueues its
 * job: of concurrent decisions one changes the row, the others change nothing and get 409.
 */
export class AgentApprovalsService {
  constructor(
    private readonly k: Kernel,
    private readonly runs: AgentRunsService,
    private readonly runJob: () => JobDefinition<RunAgentPayload>,
  ) {}

  async list(tenant: Tenant, agentId: string, q: { cursor?: string; limit?: number; status?: ApprovalStatus }): Promise<PageResult<ApprovalT>> {
    await agentOr404(this.k, tenant, agentId)
    return this.k.paginate({
      list: 'listAgentApprovals',
      tenant,
      filters: { agent: agentId, status: q.status },
      query: q,
      fetch: (page) => repo.listApprovals(this.k.db, tenant, agentId, { ...page, status: q.status }),
      key: (r) => r.id,
      view: approvalView,
    })
  }

  async decide(principal: Principal, agentId: string, runId: string, body: ApproveAgentRunBodyT): Promise<AgentRunT> {
    const run = await runOr404(this.k, principal, agentId, runId)
    const approval = run.status === 'requires_approval' ? (await repo.pendingApprovals(this.k.db, principal, [run.id]))[0] : undefined
    if (!approval) throw notPending(`Run ${run.id} is ${run.status}, not waiting for an approval.`)
    const now = this.k.clock.now()
    if (approval.expires_at <= iso(now)) throw notPending(`The approval ${approval.id} expired at ${approval.expires_at}.`)
    const edited = body.decision === 'approve' && body.arguments ? this.checkEdited(run.agent_snapshot, approval.tool, body.arguments as Record<string, unknown>) : null
    if (body.decision === 'reject' && body.arguments) {
      throw new AppError('validation_failed', 'Edited arguments go with an approval only.', { errors: [{ pointer: '/body/arguments', detail: 'only with decision approve' }] })
    }
    const at = iso(now)
    return this.k.transaction(principal, async (tx) => {
      const status = body.decision === 'approve' ? 'approved' : 'rejected'
      const decided = { status, comment: body.comment ?? null, edited_arguments: edited ? toJson(edited) : null, decided_by: principal.keyId, decided_at: at } as const
      if (!(await repo.decideApproval(tx, principal, approval.id, decided))) throw notPending(`The approval ${approval.id} was decided a moment ago.`)
      // Waiting for a person does not count against the run's timeout.
      const waited = now.getTime() - Date.parse(approval.created_at)
      const deadline = iso(new Date(Date.parse(run.deadline_at) + Math.max(0, waited)))
      if (!(await repo.transitionRun(tx, principal, run.id, ['requires_approval'], { status: 'running', deadline_at: deadline, updated_at: at }))) {
        throw notPending(`Run ${run.id} is no longer waiting for an approval.`)
      }
      await enqueue(tx, this.k.clock, this.runJob(), { workspace_id: principal.workspaceId, mode: principal.mode, run_id: run.id })
      await this.k.events.emit(tx, principal, 'agent_approval.resolved', approvalView({ ...approval, ...decided }))
      const next = (await repo.findRun(tx, principal, run.id))!
      await this.k.events.emit(tx, principal, 'agent_run.started', runSummaryView(next, null))
      return this.runs.viewOf(principal, next, tx)
    })
  }

  /** Edited arguments must fit the tool's parameters as the run knows the tool. */
  private checkEdited(snapshot: string, toolName: string, args: Record<string, unknown>): Record<string, unknown> {
    const tool = fromJson<AgentSnapshot>(snapshot, { tools: [] } as unknown as AgentSnapshot).tools.find((t) => t.name === toolName)
    const checked = validateArguments(tool ? JSON.parse(tool.parameters) : { type: 'object' }, args)
    if (checked.ok) return checked.value
    const errors = checked.errors.map((e) => ({ pointer: `/body/arguments${e.pointer === '/' ? '' : e.pointer}`, detail: e.detail }))
    throw new AppError('validation_failed', `The edited arguments do not match the ${toolName} parameters: ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`, { errors })
  }
}

const notPending = (detail: string) => new AppError('approval_not_pending', detail)
