import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { AgentApprovalsService } from './agent-approvals.service.js'
import { dryRun, type DryRunEvent } from './agent-dry-run.js'
import { AgentRunsService, inputOf } from './agent-runs.service.js'
import { agentOr404, AgentsCrudService } from './agents-crud.service.js'
import * as repo from './agents.repository.js'
import { AppError } from '../../kernel/errors.js'
import type { AgentDryRunT, DryRunBodyT } from './agents.schemas.js'
import type { ExpireApprovalPayload } from './agent-run.store.js'
import { expireAgentApprovalJob } from './jobs/expire-agent-approval.job.js'
import { runAgentJob, RunningRuns, type RunAgentPayload } from './jobs/run-agent.job.js'

/** `services.agents`: one service per resource, e.g. `services.agents.approvals.decide(principal, id, runId, body)`. */
export class AgentsService {
  readonly agents: AgentsCrudService
  readonly runs: AgentRunsService
  readonly approvals: AgentApprovalsService
  readonly jobs: { run: JobDefinition<RunAgentPayload>; expire: JobDefinition<ExpireApprovalPayload> }
  private readonly running = new RunningRuns()

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    const expire = expireAgentApprovalJob(k)
    const run = runAgentJob(k, services, this.running, () => expire)
    this.jobs = { run, expire }
    this.agents = new AgentsCrudService(k, services)
    this.runs = new AgentRunsService(k, services, this.running, () => run)
    this.approvals = new AgentApprovalsService(k, this.runs, () => run)
  }

  /** A dry-run of an active agent; `emit` receives each step as it happens (the streamed variant). */
  async dryRun(tenant: Tenant, agentId: string, body: DryRunBodyT, opts: { signal?: AbortSignal; emit?: (e: DryRunEvent) => void } = {}): Promise<AgentDryRunT> {
    const agent = await agentOr404(this.k, tenant, agentId)
    if (agent.status !== 'active') throw new AppError('agent_disabled', `Agent ${agent.id} is disabled: enable it (PATCH status: active) to dry-run it.`)
    const input = inputOf(agent.input_schema, body.input as string | Record<string, unknown>)
    const result = await dryRun(this.k, this.services, tenant, agent, input, opts)
    // Nothing of the dry-run is stored; the transaction only commits an Idempotency-Key with its answer.
    return opts.emit ? result : this.k.transaction(tenant, async () => result)
  }

  /** The tables answer, and the kernel's AI engine (agents plan through it) is configured. */
  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    const ai = this.k.ai.check()
    return { status: ai.status, ...(ai.detail ? { detail: ai.detail } : {}), ai_provider: this.k.ai.provider, ai_model: this.k.ai.model }
  }
}

/** The module's usage hook: agent runs created and run steps recorded, per UTC day. */
export async function agentsUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const runs = await countPerDay(k.db, tenant, 'agent_runs', from, to)
  const steps = await countPerDay(k.db, tenant, 'agent_run_steps', from, to, { at: 'started_at' })
  return [...runs.map((r) => ({ day: r.day, metric: 'agent_runs', count: r.count })), ...steps.map((r) => ({ day: r.day, metric: 'agent_run_steps', count: r.count }))]
}

declare module '../../kernel/services.js' {
  interface Services {
    agents: AgentsService
  }
}
