import { iso } from '../../kernel/clock.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleGauge } from '../../kernel/metrics.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { WebhookDeliverer } from './jobs/deliver-webhook.job.js'
import { WebhookDeliveriesService } from './webhook-deliveries.service.js'
import { WebhookEndpointsService } from './webhook-endpoints.service.js'
import * as repo from './webhooks.repository.js'
import { purgeEventsBefore } from './webhooks.retention.js'
import type { EventTypeViewT } from './webhooks.schemas.js'

/** `resource.action`, e.g. `conversation.created`: the key of the event catalog list. */
const EVENT_TYPE_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/

/** `services.webhooks`: endpoints and deliveries (one service each), the event catalog, health and gauges. */
export class WebhooksService {
  readonly endpoints: WebhookEndpointsService
  readonly deliveries: WebhookDeliveriesService

  constructor(
    private readonly k: Kernel,
    deliverer: WebhookDeliverer,
  ) {
    this.endpoints = new WebhookEndpointsService(k, deliverer)
    this.deliveries = new WebhookDeliveriesService(k, deliverer)
  }

  /** Outbox events that copy a retention class's content (RetentionClass.events): counted and purged with it. */
  readonly outbox = {
    count: (tenant: Tenant, types: string[], before: string): Promise<number> => repo.countEventsBefore(this.k.db, tenant, types, before),
    purge: (tenant: Tenant, types: string[], before: string, limit: number): Promise<number> => purgeEventsBefore(this.k, tenant, types, before, limit),
  }

  // ---- event catalog ----

  listEventTypes(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<EventTypeViewT>> {
    return this.k.paginate({
      list: 'listEventCatalog',
      tenant,
      query: q,
      keyShape: EVENT_TYPE_SHAPE,
      fetch: async ({ after, limit }) =>
        this.k.events
          .catalog()
          .filter((t) => after === null || t.type > after)
          .slice(0, limit + 1),
      key: (t) => t.type,
      view: (t) => ({
        object: 'event_type' as const,
        type: t.type,
        module: t.module,
        description: t.description,
        // Plain JSON without the schemas' short `$id`s, which would collide when a client loads several into one validator.
        schema: JSON.parse(JSON.stringify(t.schema), (key, value) => (key === '$id' ? undefined : value)) as Record<string, unknown>,
        example: t.example,
      }),
    })
  }

  // ---- health ----

  async metrics(): Promise<ModuleGauge[]> {
    const { deliveries, attempts } = await repo.outcomeCounts(this.k.db)
    return [
      {
        name: 'svc_webhooks_deliveries',
        help: 'Webhook deliveries by status (pending, succeeded, failed) and mode',
        labelNames: ['status', 'mode'],
        values: deliveries.map((d) => ({ labels: { status: d.status, mode: d.mode }, value: Number(d.n) })),
      },
      {
        name: 'svc_webhooks_attempts',
        help: 'Webhook delivery attempts by outcome (succeeded, failed) and mode',
        labelNames: ['outcome', 'mode'],
        values: attempts.map((a) => ({ labels: { outcome: a.status, mode: a.mode }, value: Number(a.n) })),
      },
    ]
  }

  async health(): Promise<ModuleHealth> {
    const now = this.k.clock.now()
    const s = await repo.deliveryStats(this.k.db, iso(now))
    const overdue = s.oldestDue ? Math.max(0, Math.round((now.getTime() - Date.parse(s.oldestDue)) / 1000)) : 0
    // Deliveries due for more than five minutes mean no worker is delivering (or it cannot keep up).
    return {
      status: overdue > 300 ? 'degraded' : 'ok',
      pending_deliveries: s.pending,
      failed_deliveries: s.failed,
      oldest_due_delivery_age_seconds: overdue,
    }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    webhooks: WebhooksService
  }
}
