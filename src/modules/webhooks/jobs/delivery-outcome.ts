import { iso } from '../../../kernel/clock.js'
import type { Tx } from '../../../kernel/db/database.js'
import type { JobLease } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import * as repo from '../webhooks.repository.js'
import type { AttemptSource, DeliveryOutcome } from '../webhooks.repository.js'
import type { DeliveryStatus } from '../webhooks.tables.js'
import { endpointView } from '../webhooks.views.js'
import { groupBy, tenantKey } from './batch-groups.js'
import type { SendResult } from './webhook-sender.js'

export interface DeliverPayload {
  delivery_id: string
  workspace_id: string
  mode: Mode
  /** Position in the retry schedule (1 = first try); null for a manual replay (one attempt, no retries). */
  attempt: number | null
}

/** The answer to one attempt, ready to be recorded. */
export interface Answer {
  tenant: Tenant
  source: AttemptSource
  attemptId: string
  result: SendResult
  /** When the answer came. */
  at: Date
  delivery: DeliveryOutcome
  nextAt: Date | null
  next: DeliverPayload | null
  /** The runner's lease on the job: completed with the outcome, in the same transaction. */
  lease?: JobLease
}

function nextDelaySeconds(k: Kernel, scheduledAttempt: number, retryAfter: number | null): number | null {
  const schedule = k.config.webhooks.retryScheduleSeconds
  if (scheduledAttempt > schedule.length) return null
  if (retryAfter !== null) return retryAfter
  // ±20 % jitter spreads retries of many deliveries that failed together.
  return schedule[scheduledAttempt - 1] * (0.8 + Math.random() * 0.4)
}

/** What the answer to one attempt changes: the delivery's outcome and the next scheduled attempt. */
export function answerOf(k: Kernel, tenant: Tenant, row: AttemptSource, scheduled: number | null, attemptId: string, r: SendResult, lease: JobLease | undefined): Answer {
  const now = k.clock.now()
  const nowIso = iso(now)
  const gone = r.status === 410
  let status: DeliveryStatus
  let nextAt: Date | null = null
  if (r.ok) status = 'succeeded'
  else if (scheduled === null) status = row.status === 'pending' ? 'pending' : 'failed'
  else {
    const delay = gone ? null : nextDelaySeconds(k, scheduled, r.retryAfterSeconds)
    nextAt = delay === null ? null : new Date(now.getTime() + delay * 1000)
    status = nextAt ? 'pending' : 'failed'
  }
  const delivery: DeliveryOutcome = {
    id: row.id,
    status,
    last_attempt_at: nowIso,
    last_response_status: r.status,
    last_response_body: r.excerpt,
    last_duration_ms: r.durationMs,
    updated_at: nowIso,
    // last_error keeps the latest failure, also after a later success (what went wrong, and when it healed).
    set_last_error: !r.ok,
    last_error: r.ok ? null : r.error,
    // A replay leaves a pending retry chain as it is.
    set_next_retry_at: scheduled !== null || r.ok,
    next_retry_at: nextAt ? iso(nextAt) : null,
  }
  const next = nextAt && scheduled !== null ? { delivery_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: scheduled + 1 } : null
  return { tenant, source: row, attemptId, result: r, at: now, delivery, nextAt, next, lease }
}

/**
 * Endpoint health after a batch, as if its answers had been recorded one by one in order: a success ends
 * a failing run; a failure starts one (a new one after a success in the same batch); 410, or a run
 * longer than the limit, disables the endpoint (once: the event is emitted by the call that disabled it).
 */
export async function recordHealth(k: Kernel, tx: Tx, done: Answer[]): Promise<void> {
  const { config } = k
  const limitMs = config.webhooks.disableAfterHours * 3600_000
  const endpoints = new Map<string, { tenant: Tenant; state: 'keep' | 'clear' | 'mark' | 'restart'; maybeFailing: boolean; disable: string | null }>()
  for (const a of done) {
    const id = a.source.endpoint_id
    let h = endpoints.get(id)
    if (!h) endpoints.set(id, (h = { tenant: a.tenant, state: 'keep', maybeFailing: false, disable: null }))
    const since = a.source.failing_since
    if (since !== null) h.maybeFailing = true
    if (a.result.ok) h.state = 'clear'
    else if (a.result.status === 410) h.disable ??= 'The endpoint answered 410 Gone.'
    else {
      h.maybeFailing = true
      h.state = h.state === 'clear' || h.state === 'restart' ? 'restart' : 'mark'
      if (since !== null && a.at.getTime() - Date.parse(since) >= limitMs) {
        h.disable ??= `Every attempt failed for ${config.webhooks.disableAfterHours} hours (since ${since}).`
      }
    }
  }
  const nowIso = iso(k.clock.now())
  const list = [...endpoints.entries()].map(([id, h]) => ({ id, ...h }))
  for (const group of groupBy(list, (e) => tenantKey(e.tenant))) {
    const tenant = group[0].tenant
    for (const how of ['clear', 'mark', 'restart'] as const) {
      const ids = group.filter((e) => e.state === how && (how !== 'clear' || e.maybeFailing)).map((e) => e.id)
      await repo.setFailing(tx, tenant, ids, how, nowIso)
    }
  }
  for (const e of list) {
    if (!e.disable || !(await repo.disableEndpoint(tx, e.tenant, e.id, e.disable, nowIso))) continue
    const endpoint = await repo.findEndpoint(tx, e.tenant, e.id)
    if (endpoint) {
      const { failing_since: _f, metadata: _m, livemode: _l, created_at: _c, updated_at: _u, ...object } = endpointView(endpoint)
      await k.events.emit(tx, e.tenant, 'webhook_endpoint.disabled', object)
    }
  }
}
