import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import type { Tx } from '../../../kernel/db/database.js'
import { newId } from '../../../kernel/ids.js'
import { Batcher } from '../../../kernel/jobs/batch.js'
import { completeJobs, defineJob, enqueueMany, type JobContext, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from '../webhooks.repository.js'
import type { AttemptSource } from '../webhooks.repository.js'
import type { WebhookDeliveriesTable } from '../webhooks.tables.js'
import { groupBy, rounds, tenantKey } from './batch-groups.js'
import { answerOf, recordHealth, type Answer, type DeliverPayload } from './delivery-outcome.js'
import { WebhookSender } from './webhook-sender.js'

export type { DeliverPayload } from './delivery-outcome.js'

/** The error of an attempt whose worker stopped (SIGKILL, crash, lost database) between sending and recording. */
export const INTERRUPTED_ERROR = "interrupted: the worker stopped before the receiver's answer was recorded (the request may have reached the receiver)"

function unavailableReason(row: AttemptSource): string | null {
  if (row.url === null) return 'The endpoint was deleted.'
  return row.enabled !== 1 ? 'The endpoint is disabled.' : null
}

/** One job's request to start its attempt. */
interface StartRequest {
  tenant: Tenant
  payload: DeliverPayload
  jobId: string
}

/** An attempt recorded as `sending` (committed): it may now be sent. */
interface Started {
  source: AttemptSource
  attemptId: string
}

/**
 * Delivers one attempt of one delivery. The kernel runner claims the job with a lease (SKIP LOCKED on
 * PostgreSQL), so one process makes each attempt. Every request the receiver can see is an attempt row:
 *
 * 1. Before sending, one transaction records the attempt as `sending` (with this job's id) and, for a
 *    scheduled attempt, moves `scheduled_attempts` to its position — a re-run after this commit never
 *    starts the same scheduled attempt twice.
 * 2. After the answer, one transaction completes that row (guarded by `sending`, so a worker whose lease
 *    was taken over records nothing), counts it in `attempts_count`, writes the delivery's outcome and
 *    the job of the next scheduled attempt, updates the endpoint's health and completes the job.
 *
 * Both steps are batched: the jobs a claim hands over start together (one load, one transaction for all
 * their attempt rows), and the answers that arrive while the previous batch is being written are recorded
 * together (one transaction). A batch commits as a whole, so each attempt still goes through the same two
 * commits: its row exists before its request leaves, and its outcome, its delivery and its job's
 * completion commit together.
 *
 * A worker that dies between the two (SIGKILL, lost database) leaves the row `sending`; its job is re-run
 * when the lease expires, finds the row by job id, marks it failed ("interrupted: …", the request may
 * have reached the receiver) and, in the same transaction, starts the same attempt again at once: an
 * interruption is the service's failure, not the receiver's, so it neither uses up a place in the retry
 * schedule nor counts towards disabling the endpoint.
 */
export class WebhookDeliverer {
  readonly job: JobDefinition<DeliverPayload>
  private readonly sender: WebhookSender
  private readonly starts = new Batcher<StartRequest, Started | null>((items) => this.startBatch(items), { maxBatch: 256 })
  private readonly answers = new Batcher<Answer, boolean>((items) => this.recordBatch(items), { maxBatch: 256 })

  constructor(private readonly k: Kernel) {
    this.sender = new WebhookSender(k)
    this.job = defineJob<DeliverPayload>({
      name: 'webhooks.deliver',
      // Only infrastructure errors (database down) use this; HTTP failures follow WEBHOOK_RETRY_SCHEDULE.
      retrySchedule: [1, 5, 30, 120, 600, 1800],
      run: (p, ctx) => this.deliver(p, ctx),
    })
  }

  async close(): Promise<void> {
    await this.sender.close()
  }

  async deliver(p: DeliverPayload, ctx: Pick<JobContext, 'jobId' | 'lease' | 'completed'>): Promise<void> {
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
    const started = await this.starts.add({ tenant, payload: p, jobId: ctx.jobId })
    if (!started) return
    const { source: row, attemptId } = started
    const url = row.url
    if (url === null) return

    const { headers, body } = this.sender.request(row)
    const result = await this.sender.send(url, headers, body)
    if (await this.answers.add(answerOf(this.k, tenant, row, p.attempt, attemptId, result, ctx.lease))) ctx.completed = true
  }

  /**
   * Step 1 for a batch of jobs: one query loads their deliveries (with what an earlier run of each job
   * recorded), then one transaction claims every attempt on its delivery (scheduled: guarded by its
   * position, see repo.startAttempts) and records it as `sending`. Null for a job with nothing to send
   * (finished, already made, endpoint gone, or another run has it).
   */
  private async startBatch(items: StartRequest[]): Promise<(Started | null)[]> {
    const { db, clock } = this.k
    const sources: (AttemptSource | undefined)[] = new Array(items.length)
    const indexed = items.map((item, i) => ({ item, i }))
    for (const group of groupBy(indexed, (x) => tenantKey(x.item.tenant))) {
      const tenant = group[0].item.tenant
      const loaded = await repo.loadForAttempts(
        db,
        tenant,
        group.map((x) => ({ deliveryId: x.item.payload.delivery_id, jobId: x.item.jobId })),
      )
      for (const x of group) sources[x.i] = loaded.get(x.item.payload.delivery_id)
    }

    const fresh: number[] = []
    const resumes: { i: number; cutOff: { id: string; created_at: string } }[] = []
    const unavailable: { i: number; reason: string }[] = []
    items.forEach(({ payload, jobId }, i) => {
      const row = sources[i]
      if (!row) return
      const scheduled = payload.attempt
      // What an earlier run of this job recorded: an attempt still `sending` was cut off mid-flight.
      const earlier = row.jobAttempts.filter((a) => a.job_id === jobId)
      const cutOff = earlier.find((a) => a.status === 'sending')
      if (cutOff) return void resumes.push({ i, cutOff })
      // Re-check before acting: finished, or this attempt was already made (re-run after its outcome was recorded).
      if (scheduled !== null && (row.status !== 'pending' || row.scheduled_attempts >= scheduled)) return
      if (scheduled === null && earlier.length > 0) return
      const reason = unavailableReason(row)
      if (reason) {
        if (scheduled !== null) unavailable.push({ i, reason })
        return
      }
      fresh.push(i)
    })
    const out: (Started | null)[] = items.map(() => null)
    if (fresh.length + resumes.length + unavailable.length === 0) return out

    // Audited as the batch's first job's (every job in it is a delivery, kernel/audit names them alike).
    await this.k.transaction(sideOwner(items[0].tenant), async (tx) => {
      const nowIso = iso(clock.now())
      for (const { i, reason } of unavailable) {
        await repo.updateDelivery(tx, items[i].tenant, sources[i]!.id, { status: 'failed', next_retry_at: null, last_error: reason, updated_at: nowIso })
      }
      const toStart = fresh.map((i) => ({ i, again: false }))
      for (const { i, cutOff } of resumes) {
        if (await this.resumeInterrupted(tx, items[i].tenant, sources[i]!, items[i].payload.attempt, cutOff)) toStart.push({ i, again: true })
      }
      // A delivery with two jobs in the batch (a replay beside a scheduled attempt) starts them one after the other.
      for (const round of rounds(toStart, (x) => sources[x.i]!.id)) {
        for (const group of groupBy(round, (x) => tenantKey(items[x.i].tenant))) {
          const tenant = items[group[0].i].tenant
          const started = new Set<string>()
          for (const guard of groupBy(group, (x) => `${items[x.i].payload.attempt}:${x.again}`)) {
            const opts = { scheduledAttempt: items[guard[0].i].payload.attempt, again: guard[0].again, at: nowIso }
            for (const id of await repo.startAttempts(
              tx,
              tenant,
              guard.map((x) => sources[x.i]!.id),
              opts,
            ))
              started.add(id)
          }
          const rows: repo.NewAttempt[] = []
          for (const { i } of group) {
            const row = sources[i]!
            if (!started.has(row.id)) continue
            const id = newId('wha')
            rows.push({
              id,
              delivery_id: row.id,
              workspace_id: tenant.workspaceId,
              mode: tenant.mode,
              trigger: items[i].payload.attempt === null ? 'replay' : 'scheduled',
              url: row.url ?? '',
              status: 'sending',
              response_status: null,
              response_body: null,
              error: null,
              duration_ms: 0,
              created_at: nowIso,
              job_id: items[i].jobId,
            })
            out[i] = { source: row, attemptId: id }
          }
          await repo.insertAttempts(tx, tenant, rows)
        }
      }
    })
    return out
  }

  /**
   * A re-run of a job whose earlier run died mid-flight, in the start transaction: mark that attempt
   * failed (interrupted) and count it. True when the same attempt is to be made again: not when there is
   * nothing left to do (the endpoint is gone or disabled — a scheduled delivery then fails — or the
   * delivery finished meanwhile, which the start's guard sees), nor when another run concluded it first.
   */
  private async resumeInterrupted(tx: Tx, tenant: Tenant, row: AttemptSource, scheduled: number | null, cutOff: { id: string; created_at: string }): Promise<boolean> {
    const outcome = { status: 'failed' as const, response_status: null, response_body: null, error: INTERRUPTED_ERROR, duration_ms: 0 }
    if (!(await repo.finishAttempt(tx, tenant, cutOff.id, outcome))) return false
    const unavailable = unavailableReason(row)
    // The delivery describes its last finished attempt; the status and the retry chain are left as they are.
    const patch: Partial<WebhookDeliveriesTable> = {
      last_attempt_at: cutOff.created_at,
      last_response_status: null,
      last_response_body: null,
      last_duration_ms: null,
      last_error: INTERRUPTED_ERROR,
      updated_at: iso(this.k.clock.now()),
      ...(unavailable && scheduled !== null && row.status === 'pending' ? { status: 'failed' as const, next_retry_at: null, last_error: unavailable } : {}),
    }
    await repo.recordOutcome(tx, tenant, row.id, patch)
    return !unavailable
  }

  /**
   * Step 2 for a batch of answers, in one transaction: complete the attempts (guarded by `sending`: when
   * a worker's lease was taken over and the new owner already marked the attempt interrupted, and made it
   * again, that answer is not recorded, and nothing else of it is), the deliveries' outcomes, the jobs of
   * the next scheduled attempts, the endpoints' health, and the jobs of the recorded attempts. Answers
   * true where the job was completed here.
   */
  private async recordBatch(items: Answer[]): Promise<boolean[]> {
    const { clock } = this.k
    const recorded = new Set<string>()
    await this.k.transaction(sideOwner(items[0]?.tenant), async (tx) => {
      // The same delivery answered twice in one batch (a replay beside a scheduled attempt): in order.
      for (const round of rounds(items, (a) => a.source.id)) {
        for (const group of groupBy(round, (a) => tenantKey(a.tenant))) {
          const answered = group.map((a) => ({
            attempt: {
              id: a.attemptId,
              status: a.result.ok ? ('succeeded' as const) : ('failed' as const),
              response_status: a.result.status,
              response_body: a.result.excerpt,
              error: a.result.error,
              duration_ms: a.result.durationMs,
            },
            delivery: a.delivery,
          }))
          for (const id of await repo.recordAnswers(tx, group[0].tenant, answered)) recorded.add(id)
        }
      }
      const done = items.filter((a) => recorded.has(a.attemptId))
      await enqueueMany(
        tx,
        clock,
        this.job,
        done.filter((a) => a.next !== null).map((a) => ({ payload: a.next!, runAt: a.nextAt! })),
      )
      await recordHealth(this.k, tx, done)
      await completeJobs(
        tx,
        clock,
        done.flatMap((a) => (a.lease ? [a.lease] : [])),
      )
    })
    return items.map((a) => recorded.has(a.attemptId) && a.lease !== undefined)
  }
}
