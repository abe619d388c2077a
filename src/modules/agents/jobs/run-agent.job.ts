import { aiEngineFor } from '../../../kernel/ai/ai.js'
import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import { defineJob, extendLease, type JobContext, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { execute, type Outcome } from '../agent-executor.js'
import { DurableRunStore, RunMovedOn, type ExpireApprovalPayload } from '../agent-run.store.js'
import type { AgentSnapshot } from '../agents.config.js'
import * as repo from '../agents.repository.js'
import type { AgentRunsTable } from '../agents.tables.js'
import { runSummaryView, stepRecord } from '../agents.views.js'
import { citationsOf, passagesFor, sourceOf, textOf, type Passage } from '../agent-input.js'
import { newId } from '../../../kernel/ids.js'

export interface RunAgentPayload {
  workspace_id: string
  mode: Tenant['mode']
  run_id: string
}

/** Runs executing in this process, so a cancellation reaching this process aborts the call in flight at once. */
export class RunningRuns {
  private readonly controllers = new Map<string, AbortController>()
  start(runId: string): AbortController {
    const c = new AbortController()
    this.controllers.set(runId, c)
    return c
  }
  end(runId: string, c: AbortController): void {
    if (this.controllers.get(runId) === c) this.controllers.delete(runId)
  }
  abort(runId: string): void {
    this.controllers.get(runId)?.abort()
  }
}

/** How often a worker checks that its run was not cancelled elsewhere, and renews its leases (at most). */
const WATCH_MS = 250
const TRANSIENT = new Set(['ai_provider_unavailable', 'ai_provider_timeout'])
const PROVIDER_ATTEMPTS = 3
const RETRY_SCHEDULE = [2, 10, 30, 120, 600]

/**
 * Executes a run until it answers, waits for an approval, fails or is cancelled. Durable: every step is
 * recorded as it happens (agent-run.store.ts), the run is held by one worker at a time (the run's lease,
 * renewed with the job's), and a worker that dies mid-run leaves both leases to expire: the job is claimed
 * again and the run continues from its last recorded step.
 */
export function runAgentJob(k: Kernel, services: Services, running: RunningRuns, expireJob: () => JobDefinition<ExpireApprovalPayload>) {
  return defineJob<RunAgentPayload>({
    name: 'agents.run',
    retrySchedule: RETRY_SCHEDULE,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      let run = await repo.findRun(k.db, tenant, p.run_id)
      if (!run || !['queued', 'running'].includes(run.status)) return
      const leaseSeconds = k.config.jobLeaseSeconds
      const now = k.clock.now()
      const worker = k.jobs.workerId
      if (!(await repo.claimRun(k.db, tenant, run.id, worker, iso(now), iso(new Date(now.getTime() + leaseSeconds * 1000))))) {
        // Another worker holds the run: it continues it. Should that worker be gone, its lease runs out: look again then.
        ctx.retryAt = new Date(Date.parse(run.lease_until ?? iso(now)) + 1000)
        throw new Error(`run ${run.id} is held by ${run.worker_id}`)
      }
      const controller = running.start(run.id)
      const watch = setInterval(() => void watchRun(k, tenant, run!.id, worker, controller, ctx, leaseSeconds), Math.min(WATCH_MS, (leaseSeconds * 1000) / 8))
      const deadline = setTimeout(() => controller.abort(new Error('deadline')), Math.max(0, Date.parse(run.deadline_at) - k.clock.now().getTime()))
      try {
        if (run.status === 'queued') run = await start(k, tenant, run)
        if (Date.parse(run.deadline_at) <= k.clock.now().getTime()) return await finish(k, services, tenant, run, timeoutOutcome(run), [])
        const { outcome, passages } = await advance(k, services, tenant, run, controller.signal, expireJob())
        const timedOut = controller.signal.reason instanceof Error && controller.signal.reason.message === 'deadline'
        await finish(k, services, tenant, run, outcome.kind === 'failed' && outcome.code === 'cancelled' && timedOut ? timeoutOutcome(run) : outcome, passages)
      } catch (err) {
        if (err instanceof RunMovedOn) return
        if (err instanceof AppError && TRANSIENT.has(err.code) && ctx.attempt < PROVIDER_ATTEMPTS) throw err
        if (err instanceof AppError && err.code.startsWith('ai_provider')) return void (await finish(k, services, tenant, run, { kind: 'failed', code: err.code, detail: err.detail }, []))
        // The job's last attempt: end the run rather than leave it running with nobody to finish it.
        if (ctx.attempt >= RETRY_SCHEDULE.length + 1) {
          await finish(k, services, tenant, run, { kind: 'failed', code: 'run_error', detail: 'The run could not be executed (its worker failed repeatedly); see the service log.' }, []).catch(
            () => {},
          )
        }
        throw err
      } finally {
        clearInterval(watch)
        clearTimeout(deadline)
        running.end(run.id, controller)
        await repo.releaseRun(k.db, tenant, run.id, worker).catch(() => {})
      }
    },
  })
}

async function start(k: Kernel, tenant: Tenant, run: AgentRunsTable): Promise<AgentRunsTable> {
  const now = iso(k.clock.now())
  return k.transaction(sideOwner(tenant), async (tx) => {
    await repo.transitionRun(tx, tenant, run.id, ['queued'], { status: 'running', started_at: now, updated_at: now })
    const next = (await repo.findRun(tx, tenant, run.id))!
    await k.events.emit(tx, tenant, 'agent_run.started', runSummaryView(next, null))
    return next
  })
}

async function advance(
  k: Kernel,
  services: Services,
  tenant: Tenant,
  run: AgentRunsTable,
  signal: AbortSignal,
  expireJob: JobDefinition<ExpireApprovalPayload>,
): Promise<{ outcome: Outcome; passages: Passage[] }> {
  const snapshot = fromJson<AgentSnapshot>(run.agent_snapshot, null as unknown as AgentSnapshot)
  const agent = await repo.findAgent(k.db, tenant, run.agent_id)
  const secret = agent ? k.secrets.open(agent.signing_secret_sealed, agent.id) : ''
  const steps = (await repo.stepsOf(k.db, tenant, run.id)).map(stepRecord)
  const store = new DurableRunStore(k, tenant, run, steps, secret, expireJob, signal, k.jobs.workerId)
  const input = fromJson<{ text?: string; json?: unknown }>(run.input, {})
  const text = textOf(input)
  const passages = await passagesFor(services, tenant, snapshot.knowledge_base_ids, text)
  const outcome = await execute({ snapshot, engine: aiEngineFor(k, snapshot.ai.provider), inputText: text, passages: passages.map(sourceOf), store, signal })
  return { outcome, passages }
}

/** The end of a run (or of this stretch of it): its state, its last step, its event, its output posted. */
async function finish(k: Kernel, services: Services, tenant: Tenant, run: AgentRunsTable, outcome: Outcome, passages: Passage[]): Promise<void> {
  if (outcome.kind === 'waiting') return
  const now = iso(k.clock.now())
  const steps = await repo.stepsOf(k.db, tenant, run.id)
  await k.transaction(sideOwner(tenant), async (tx) => {
    const position = steps.length + 1
    const base = {
      id: '',
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      run_id: run.id,
      position,
      tool: null,
      call_id: null,
      arguments: null,
      result: null,
      idempotency_key: null,
      approval_id: null,
      started_at: now,
      completed_at: now,
    }
    if (outcome.kind === 'answer') {
      const citations = citationsOf(passages, outcome.sources)
      const moved = await repo.transitionRun(tx, tenant, run.id, ['running'], {
        status: 'succeeded',
        output: toJson({ text: outcome.text, citations }),
        step_count: position,
        finished_at: now,
        updated_at: now,
      })
      if (!moved) return
      await repo.insertStep(tx, { ...base, id: newId('stp'), type: 'message', status: 'completed', text: outcome.text })
      if (run.conversation_id) await services.inbox.turns.post(tx, tenant, run.conversation_id, outcome.text, { type: 'agent', id: run.agent_id })
      const next = (await repo.findRun(tx, tenant, run.id))!
      await k.events.emit(tx, tenant, 'agent_run.succeeded', runSummaryView(next, null))
      return
    }
    const error = { code: outcome.code, detail: outcome.detail }
    const moved = await repo.transitionRun(tx, tenant, run.id, ['running'], { status: 'failed', error: toJson(error), step_count: position, finished_at: now, updated_at: now })
    if (!moved) return // cancelled meanwhile: the cancellation wrote the end
    await repo.insertStep(tx, { ...base, id: newId('stp'), type: 'error', status: 'failed', text: `${outcome.code}: ${outcome.detail}` })
    const next = (await repo.findRun(tx, tenant, run.id))!
    await k.events.emit(tx, tenant, 'agent_run.failed', runSummaryView(next, null))
  })
}

const timeoutOutcome = (run: AgentRunsTable): Outcome => ({ kind: 'failed', code: 'run_timeout', detail: `The run did not finish before its deadline (${run.deadline_at}).` })

/** While a run executes: abort it when it was cancelled elsewhere, and renew its lease and the job's (every third of a lease). */
const renewedAt = new WeakMap<AbortController, number>()
async function watchRun(k: Kernel, tenant: Tenant, runId: string, worker: string, controller: AbortController, ctx: JobContext, leaseSeconds: number): Promise<void> {
  try {
    const run = await repo.findRun(k.db, tenant, runId)
    if (!run || run.status === 'cancelled') return controller.abort(new Error('cancelled'))
    const now = k.clock.now().getTime()
    if (!renewedAt.has(controller)) renewedAt.set(controller, now)
    if (now - renewedAt.get(controller)! < (leaseSeconds * 1000) / 3) return
    renewedAt.set(controller, now)
    await repo.claimRun(k.db, tenant, runId, worker, iso(new Date(now)), iso(new Date(now + leaseSeconds * 1000)))
    if (ctx.lease) await extendLease(k.db, k.clock, ctx.lease, leaseSeconds)
  } catch {
    // A failed check is tried again at the next tick.
  }
}
