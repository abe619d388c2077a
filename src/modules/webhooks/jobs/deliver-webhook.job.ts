import { Agent } from 'undici'
import { iso } from '../../../kernel/clock.js'
import type { Tx } from '../../../kernel/db/database.js'
import { API_VERSION } from '../../../kernel/events/events.js'
import { newId } from '../../../kernel/ids.js'
import { defineJob, enqueue, type JobContext, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import { checkDeliveryUrl, guardedLookup, openLookup } from '../webhooks.destination.js'
import * as repo from '../webhooks.repository.js'
import { openSecrets } from '../webhooks.secrets.js'
import { activeSecrets, signatureHeaders } from '../webhooks.signing.js'
import type { DeliveryStatus, WebhookDeliveriesTable } from '../webhooks.tables.js'
import { endpointView, envelopeBody } from '../webhooks.views.js'

export interface DeliverPayload {
  delivery_id: string
  workspace_id: string
  mode: Mode
  /** Position in the retry schedule (1 = first try); null for a manual replay (one attempt, no retries). */
  attempt: number | null
}

/** Bytes of the response body kept on the attempt; more is read (to reuse the connection) up to DRAIN_LIMIT. */
export const RESPONSE_EXCERPT_BYTES = 2048
const DRAIN_LIMIT = 64 * 1024
const MAX_RETRY_AFTER_SECONDS = 24 * 3600

/** The error of an attempt whose worker stopped (SIGKILL, crash, lost database) between sending and recording. */
export const INTERRUPTED_ERROR =
  "interrupted: the worker stopped before the receiver's answer was recorded (the request may have reached the receiver)"

/** A delivery as one attempt loads it: the delivery, its endpoint (null fields when deleted) and its event. */
type AttemptRow = NonNullable<Awaited<ReturnType<typeof repo.loadForAttempt>>>

function unavailableReason(row: AttemptRow): string | null {
  if (row.url === null) return 'The endpoint was deleted.'
  return row.enabled !== 1 ? 'The endpoint is disabled.' : null
}

interface SendResult {
  ok: boolean
  status: number | null
  excerpt: string | null
  error: string | null
  durationMs: number
  retryAfterSeconds: number | null
}

function parseRetryAfter(v: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(v) ? v[0] : v
  if (!raw) return null
  if (/^\d+$/.test(raw.trim())) return Math.min(Number(raw.trim()), MAX_RETRY_AFTER_SECONDS)
  const at = Date.parse(raw)
  if (Number.isNaN(at)) return null
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS)
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const kept: Buffer[] = []
  let keptBytes = 0
  let total = 0
  for await (const chunk of body) {
    total += chunk.length
    if (keptBytes < RESPONSE_EXCERPT_BYTES) {
      const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes)
      kept.push(part)
      keptBytes += part.length
    }
    if (total > DRAIN_LIMIT) {
      body.destroy()
      break
    }
  }
  return Buffer.concat(kept).toString('utf8')
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
 *    the job of the next scheduled attempt, and updates the endpoint's health.
 *
 * A worker that dies between the two (SIGKILL, lost database) leaves the row `sending`; its job is re-run
 * when the lease expires, finds the row by job id, marks it failed ("interrupted: …", the request may
 * have reached the receiver) and, in the same transaction, starts the same attempt again at once: an
 * interruption is the service's failure, not the receiver's, so it neither uses up a place in the retry
 * schedule nor counts towards disabling the endpoint.
 */
export class WebhookDeliverer {
  readonly job: JobDefinition<DeliverPayload>
  private readonly open: Agent
  private readonly guarded: Agent
  private readonly userAgent = `Svc-Webhooks/${API_VERSION} (+https://github.com/conversational-automation-service)`

  constructor(private readonly k: Kernel) {
    const timeout = k.config.webhooks.timeoutMs
    // Keep-alive pools per origin: most deliveries go to a few receivers, so connections are reused.
    const common = { keepAliveTimeout: 30_000, connections: 128, headersTimeout: timeout, bodyTimeout: timeout }
    this.open = new Agent({ ...common, connect: { timeout, lookup: openLookup } })
    this.guarded = new Agent({ ...common, connect: { timeout, lookup: guardedLookup } })
    this.job = defineJob<DeliverPayload>({
      name: 'webhooks.deliver',
      // Only infrastructure errors (database down) use this; HTTP failures follow WEBHOOK_RETRY_SCHEDULE.
      retrySchedule: [1, 5, 30, 120, 600, 1800],
      run: (p, ctx) => this.deliver(p, ctx),
    })
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.open.close(), this.guarded.close()])
  }

  async deliver(p: DeliverPayload, ctx: Pick<JobContext, 'jobId'>): Promise<void> {
    const tenant: Tenant = { workspaceId: p.workspace_id, mode: p.mode }
    const { db, clock } = this.k
    const row = await repo.loadForAttempt(db, tenant, p.delivery_id)
    if (!row) return
    const scheduled = p.attempt
    // What an earlier run of this job recorded: an attempt still `sending` was cut off mid-flight.
    const earlier = await repo.attemptsOfJob(db, tenant, row.id, ctx.jobId)
    const cutOff = earlier.find((a) => a.status === 'sending')
    let attemptId: string | null
    if (cutOff) {
      attemptId = await this.resumeInterrupted(tenant, row, scheduled, cutOff, ctx.jobId)
    } else {
      // Re-check before acting: finished, or this attempt was already made (re-run after its outcome was recorded).
      if (scheduled !== null && (row.status !== 'pending' || row.scheduled_attempts >= scheduled)) return
      if (scheduled === null && earlier.length > 0) return
      const unavailable = unavailableReason(row)
      if (unavailable) {
        if (scheduled !== null) {
          await repo.updateDelivery(db, tenant, row.id, { status: 'failed', next_retry_at: null, last_error: unavailable, updated_at: iso(clock.now()) })
        }
        return
      }
      attemptId = await this.k.transaction(tenant, (tx) => this.startAttempt(tx, tenant, row, scheduled, ctx.jobId, false))
    }
    if (attemptId === null || row.url === null) return

    const body = envelopeBody(row)
    const secrets = openSecrets(this.k.secrets, row.endpoint_id, row.secrets ?? '[]')
    const started = clock.now()
    const t = Math.floor(started.getTime() / 1000)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.userAgent,
      'svc-event-id': row.event_id,
      'svc-event-type': row.event_type,
      'svc-delivery-id': row.id,
      ...signatureHeaders(activeSecrets(secrets, started), row.event_id, t, body),
    }
    const result = await this.send(row.url, headers, body)
    await this.record(tenant, row, scheduled, attemptId, result)
  }

  /**
   * Step 1, in the caller's transaction: claim the attempt on the delivery (scheduled: guarded by its
   * position, see repo.startAttempt) and record it as `sending` before anything is sent. Returns the
   * attempt's id, or null when the guard failed (another run has it, or the delivery is finished).
   */
  private async startAttempt(tx: Tx, tenant: Tenant, row: AttemptRow, scheduled: number | null, jobId: string, again: boolean): Promise<string | null> {
    const nowIso = iso(this.k.clock.now())
    if (!(await repo.startAttempt(tx, tenant, row.id, { scheduledAttempt: scheduled, again, at: nowIso }))) return null
    const id = newId('wha')
    await repo.insertAttempt(tx, {
      id,
      delivery_id: row.id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      attempt: (await repo.countAttempts(tx, tenant, row.id)) + 1,
      trigger: scheduled === null ? 'replay' : 'scheduled',
      url: row.url ?? '',
      status: 'sending',
      response_status: null,
      response_body: null,
      error: null,
      duration_ms: 0,
      created_at: nowIso,
      job_id: jobId,
    })
    return id
  }

  /**
   * A re-run of a job whose earlier run died mid-flight: in one transaction, mark that attempt failed
   * (interrupted), count it, and start the same attempt again (returns its id) unless there is nothing
   * left to do: the endpoint is gone or disabled (a scheduled delivery then fails, as below), or the
   * delivery finished meanwhile (e.g. a replay succeeded). Null when another run concluded it first.
   */
  private resumeInterrupted(
    tenant: Tenant,
    row: AttemptRow,
    scheduled: number | null,
    cutOff: { id: string; created_at: string },
    jobId: string,
  ): Promise<string | null> {
    return this.k.transaction(tenant, async (tx) => {
      const outcome = { status: 'failed' as const, response_status: null, response_body: null, error: INTERRUPTED_ERROR, duration_ms: 0 }
      if (!(await repo.finishAttempt(tx, tenant, cutOff.id, outcome))) return null
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
      if (unavailable) return null
      return this.startAttempt(tx, tenant, row, scheduled, jobId, true)
    })
  }

  private async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const t0 = performance.now()
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - t0) })
    let guarded: boolean
    try {
      guarded = (await checkDeliveryUrl(url, { publicUrl: this.k.config.publicUrl, allowPrivateNetworks: this.k.config.webhooks.allowPrivateNetworks })).guarded
    } catch (err) {
      return done({ ok: false, status: null, excerpt: null, error: (err as Error).message, retryAfterSeconds: null })
    }
    const u = new URL(url)
    try {
      const res = await (guarded ? this.guarded : this.open).request({
        origin: u.origin,
        path: u.pathname + u.search,
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(this.k.config.webhooks.timeoutMs),
      })
      const excerpt = await readExcerpt(res.body)
      const s = res.statusCode
      const ok = s >= 200 && s < 300
      const error = ok ? null : s >= 300 && s < 400 ? `HTTP ${s}: redirects are not followed; point the endpoint at the final URL.` : `HTTP ${s}`
      const retryAfter = s === 429 || s === 503 ? parseRetryAfter(res.headers['retry-after'], this.k.clock.now()) : null
      return done({ ok, status: s, excerpt, error, retryAfterSeconds: retryAfter })
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error & { code?: string } }
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.code ?? '')
      const message = timedOut
        ? `No response within ${this.k.config.webhooks.timeoutMs} ms (WEBHOOK_TIMEOUT_MS).`
        : `${e.code ?? e.cause?.code ?? 'error'}: ${e.cause?.message ?? e.message}`
      return done({ ok: false, status: null, excerpt: null, error: message.slice(0, 1000), retryAfterSeconds: null })
    }
  }

  private nextDelaySeconds(scheduledAttempt: number, retryAfter: number | null): number | null {
    const schedule = this.k.config.webhooks.retryScheduleSeconds
    if (scheduledAttempt > schedule.length) return null
    if (retryAfter !== null) return retryAfter
    // ±20 % jitter spreads retries of many deliveries that failed together.
    return schedule[scheduledAttempt - 1] * (0.8 + Math.random() * 0.4)
  }

  /** Step 2: complete the attempt with the answer, the delivery's outcome, the next scheduled attempt, the endpoint's health. */
  private async record(tenant: Tenant, row: AttemptRow, scheduled: number | null, attemptId: string, r: SendResult): Promise<void> {
    const { clock, config } = this.k
    const now = clock.now()
    const nowIso = iso(now)
    const gone = r.status === 410
    let status: DeliveryStatus
    let nextAt: Date | null = null
    if (r.ok) status = 'succeeded'
    else if (scheduled === null) status = row.status === 'pending' ? 'pending' : 'failed'
    else {
      const delay = gone ? null : this.nextDelaySeconds(scheduled, r.retryAfterSeconds)
      nextAt = delay === null ? null : new Date(now.getTime() + delay * 1000)
      status = nextAt ? 'pending' : 'failed'
    }
    const patch: Partial<WebhookDeliveriesTable> = {
      status,
      last_attempt_at: nowIso,
      last_response_status: r.status,
      last_response_body: r.excerpt,
      last_duration_ms: r.durationMs,
      updated_at: nowIso,
      // last_error keeps the latest failure, also after a later success (what went wrong, and when it healed).
      ...(r.ok ? {} : { last_error: r.error }),
      // A replay leaves a pending retry chain as it is.
      ...(scheduled !== null || r.ok ? { next_retry_at: nextAt ? iso(nextAt) : null } : {}),
    }
    await this.k.transaction(tenant, async (tx) => {
      const outcome = { status: r.ok ? ('succeeded' as const) : ('failed' as const), response_status: r.status, response_body: r.excerpt, error: r.error, duration_ms: r.durationMs }
      // Guarded by `sending`: when this worker's lease was taken over and the new owner already marked the
      // attempt interrupted (and made it again), this answer is not recorded, and nothing else is.
      if (!(await repo.finishAttempt(tx, tenant, attemptId, outcome))) return
      await repo.recordOutcome(tx, tenant, row.id, patch)
      if (nextAt && scheduled !== null) {
        await enqueue(tx, clock, this.job, { delivery_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: scheduled + 1 }, { runAt: nextAt })
      }
      // Endpoint health: a success ends a failing run; 410 or a run longer than the limit disables it.
      if (r.ok) {
        if (row.failing_since !== null) await repo.clearFailing(tx, tenant, row.endpoint_id)
        return
      }
      let disableReason: string | null = null
      if (gone) disableReason = 'The endpoint answered 410 Gone.'
      else if (row.failing_since === null) await repo.markFailing(tx, tenant, row.endpoint_id, nowIso)
      else if (now.getTime() - Date.parse(row.failing_since) >= config.webhooks.disableAfterHours * 3600_000) {
        disableReason = `Every attempt failed for ${config.webhooks.disableAfterHours} hours (since ${row.failing_since}).`
      }
      if (disableReason && (await repo.disableEndpoint(tx, tenant, row.endpoint_id, disableReason, nowIso))) {
        const endpoint = await repo.findEndpoint(tx, tenant, row.endpoint_id)
        if (endpoint) {
          const { failing_since: _f, metadata: _m, livemode: _l, created_at: _c, updated_at: _u, ...object } = endpointView(endpoint)
          await this.k.events.emit(tx, tenant, 'webhook_endpoint.disabled', object)
        }
      }
    })
  }
}
