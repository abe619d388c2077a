import { iso } from '../../kernel/clock.js'
import { fromJson, type Executor } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import { type EventEnvelope, eventTenant } from '../../kernel/events/events.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { WebhookDeliverer } from './jobs/deliver-webhook.job.js'
import * as repo from './webhooks.repository.js'
import type { DeliveryListQueryT, WebhookDeliveryDetailT, WebhookDeliveryT } from './webhooks.schemas.js'
import type { WebhookDeliveriesTable } from './webhooks.tables.js'
import { attemptView, deliveryView } from './webhooks.views.js'

/** A new pending delivery of `event` to one endpoint (its first attempt is due at once). */
export function deliveryRow(k: Pick<Kernel, 'clock'>, tenant: Tenant, event: EventEnvelope, endpointId: string): WebhookDeliveriesTable {
  return {
    id: newId('whd'),
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    event_id: event.id,
    event_type: event.type,
    endpoint_id: endpointId,
    status: 'pending',
    attempts_count: 0,
    scheduled_attempts: 0,
    last_error: null,
    next_retry_at: event.created_at,
    last_attempt_at: null,
    last_response_status: null,
    last_response_body: null,
    last_duration_ms: null,
    created_at: iso(k.clock.now()),
    updated_at: iso(k.clock.now()),
  }
}

/** Deliveries: the fan-out inside the emitting transaction, the list and detail, replays. */
export class WebhookDeliveriesService {
  constructor(
    private readonly k: Kernel,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  /**
   * The event subscriber, inside the emitting transaction: one delivery and one job per subscribed
   * enabled endpoint, so deliveries exist exactly when the event committed.
   */
  async fanOut(tx: Executor, event: EventEnvelope): Promise<void> {
    if (event.type === 'webhook.test') return
    const tenant = eventTenant(event)
    const endpoints = (await repo.enabledEndpoints(tx, tenant)).filter((e) => {
      const types = fromJson<string[]>(e.event_types, ['*'])
      return types.includes('*') || types.includes(event.type)
    })
    if (endpoints.length === 0) return
    const ids = await repo.insertDeliveries(
      tx,
      endpoints.map((e) => deliveryRow(this.k, tenant, event, e.id)),
    )
    for (const id of ids) {
      await enqueue(tx, this.k.clock, this.deliverer.job, { delivery_id: id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: 1 })
    }
  }

  async list(tenant: Tenant, q: DeliveryListQueryT): Promise<PageResult<WebhookDeliveryT>> {
    return this.k.paginate({
      list: 'listWebhookDeliveries',
      tenant,
      filters: { endpoint_id: q.endpoint_id, status: q.status, event_type: q.event_type },
      query: q,
      fetch: (page) => repo.listDeliveries(this.k.db, tenant, { ...page, endpointId: q.endpoint_id, status: q.status, eventType: q.event_type }),
      key: (r) => r.id,
      view: deliveryView,
    })
  }

  async get(tenant: Tenant, id: string): Promise<WebhookDeliveryDetailT> {
    const row = await repo.findDelivery(this.k.db, tenant, id)
    if (!row) throw notFound('webhook delivery', id)
    const attempts = await repo.listAttempts(this.k.db, tenant, id)
    return { ...deliveryView(row), attempts: attempts.map(attemptView) }
  }

  /** One more attempt of the same event (same event_id, same body) to the same endpoint, made by a job. */
  async replay(tenant: Tenant, id: string): Promise<WebhookDeliveryT> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await repo.findDelivery(tx, tenant, id)
      if (!row) throw notFound('webhook delivery', id)
      const endpoint = await repo.findEndpoint(tx, tenant, row.endpoint_id)
      if (!endpoint || endpoint.enabled !== 1) {
        throw new AppError('webhook_endpoint_unavailable', endpoint ? 'The endpoint is disabled; enable it before replaying.' : 'The endpoint of this delivery was deleted.')
      }
      await enqueue(tx, this.k.clock, this.deliverer.job, { delivery_id: id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: null })
      return deliveryView(row)
    })
  }
}
