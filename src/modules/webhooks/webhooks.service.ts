import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Executor } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { EventEnvelope } from '../../kernel/events/events.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleGauge } from '../../kernel/metrics.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { WebhookDeliverer } from './jobs/deliver-webhook.job.js'
import { checkEndpointUrl } from './webhooks.destination.js'
import * as repo from './webhooks.repository.js'
import { needsReseal, openSecrets, sealSecrets } from './webhooks.secrets.js'
import type {
  CreateEndpointBodyT,
  DeliveryListQueryT,
  EventTypeViewT,
  UpdateEndpointBodyT,
  WebhookDeliveryDetailT,
  WebhookDeliveryT,
  WebhookEndpointT,
  WebhookEndpointWithSecretT,
} from './webhooks.schemas.js'
import { newSecret } from './webhooks.signing.js'
import type { StoredSecret, WebhookDeliveriesTable, WebhookEndpointsTable } from './webhooks.tables.js'
import { attemptView, deliveryView, endpointView } from './webhooks.views.js'

/** `resource.action`, e.g. `conversation.created`: the key of the event catalog list. */
const EVENT_TYPE_SHAPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/

/** Rotated-out secrets kept (not signing) so the Playground can say "secret rotated". */
const RETIRED_SECRETS_KEPT = 5
const DEFAULT_ROTATION_GRACE_SECONDS = 86400

export class WebhooksService {
  constructor(
    private readonly k: Kernel,
    private readonly deliverer: WebhookDeliverer,
  ) {}

  // ---- endpoints (both path families call these) ----

  private async validUrl(tenant: Tenant, url: string): Promise<string> {
    return checkEndpointUrl(url, tenant.mode, { publicUrl: this.k.config.publicUrl, allowPrivateNetworks: this.k.config.webhooks.allowPrivateNetworks })
  }

  private validEventTypes(types: string[] | undefined): string[] {
    if (!types || types.includes('*')) return ['*']
    const unknown = types.filter((t) => !this.k.events.isDeclared(t))
    if (unknown.length > 0) {
      throw new AppError('webhook_event_type_unknown', `Unknown event type(s): ${unknown.join(', ')}. GET /events lists them; "*" subscribes to all.`, {
        errors: unknown.map((t) => ({ pointer: `/body/event_types/${types.indexOf(t)}`, detail: `'${t}' is not in the event catalog` })),
      })
    }
    return types
  }

  private async endpointRow(tenant: Tenant, id: string): Promise<WebhookEndpointsTable> {
    const row = await repo.findEndpoint(this.k.db, tenant, id)
    if (!row) throw notFound('webhook endpoint', id)
    return row
  }

  async listEndpoints(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<WebhookEndpointT>> {
    return this.k.paginate({
      list: 'listWebhookEndpoints',
      tenant,
      query: q,
      fetch: (page) => repo.listEndpoints(this.k.db, tenant, page),
      key: (r) => r.id,
      view: endpointView,
    })
  }

  async createEndpoint(tenant: Tenant, body: CreateEndpointBodyT): Promise<WebhookEndpointWithSecretT> {
    const url = await this.validUrl(tenant, body.url)
    const now = iso(this.k.clock.now())
    const secret = newSecret()
    const id = newId('we')
    const row: WebhookEndpointsTable = {
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      url,
      description: body.description ?? null,
      event_types: toJson(this.validEventTypes(body.event_types)),
      enabled: body.enabled === false ? 0 : 1,
      disabled_reason: null,
      disabled_at: body.enabled === false ? now : null,
      failing_since: null,
      secrets: sealSecrets(this.k.secrets, id, [{ secret, created_at: now, expires_at: null }]),
      metadata: toJson(body.metadata ?? {}),
      created_at: now,
      updated_at: now,
    }
    return this.k.transaction(async (tx) => {
      await repo.insertEndpoint(tx, row)
      return { ...endpointView(row), secret, previous_secret_expires_at: null }
    })
  }

  async getEndpoint(tenant: Tenant, id: string): Promise<WebhookEndpointT> {
    return endpointView(await this.endpointRow(tenant, id))
  }

  async updateEndpoint(tenant: Tenant, id: string, body: UpdateEndpointBodyT): Promise<WebhookEndpointT> {
    const row = await this.endpointRow(tenant, id)
    const now = iso(this.k.clock.now())
    const patch: Partial<WebhookEndpointsTable> = { updated_at: now }
    if (body.url !== undefined) patch.url = await this.validUrl(tenant, body.url)
    if (body.description !== undefined) patch.description = body.description
    if (body.event_types !== undefined) patch.event_types = toJson(this.validEventTypes(body.event_types))
    if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
    if (body.enabled === true && row.enabled !== 1) Object.assign(patch, { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null })
    if (body.enabled === false && row.enabled === 1) Object.assign(patch, { enabled: 0, disabled_reason: 'Disabled through the API.', disabled_at: now })
    return this.k.transaction(async (tx) => {
      await repo.updateEndpoint(tx, tenant, id, patch)
      return endpointView({ ...row, ...patch })
    })
  }

  /** Deleting stops its pending deliveries (they end as failed); their history stays listable. */
  async deleteEndpoint(tenant: Tenant, id: string): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    return this.k.transaction(async (tx) => {
      if (!(await repo.deleteEndpoint(tx, tenant, id))) throw notFound('webhook endpoint', id)
      return { id, object: 'webhook_endpoint' as const, deleted: true as const }
    })
  }

  async rotateSecret(tenant: Tenant, id: string, body: { grace_period_seconds?: number }): Promise<WebhookEndpointWithSecretT> {
    const now = this.k.clock.now()
    const grace = body.grace_period_seconds ?? DEFAULT_ROTATION_GRACE_SECONDS
    const until = iso(new Date(now.getTime() + grace * 1000))
    return this.k.transaction(async (tx) => {
      const row = await repo.findEndpoint(tx, tenant, id)
      if (!row) throw notFound('webhook endpoint', id)
      const secret = newSecret()
      // Old secrets stop at the latest `until`; an earlier expiry is never extended.
      const old = openSecrets(this.k.secrets, id, row.secrets).map((s) => ({
        ...s,
        expires_at: s.expires_at === null || s.expires_at > until ? until : s.expires_at,
      }))
      const secrets: StoredSecret[] = [{ secret, created_at: iso(now), expires_at: null }, ...old.slice(0, RETIRED_SECRETS_KEPT)]
      const patch = { secrets: sealSecrets(this.k.secrets, id, secrets), updated_at: iso(now) }
      await repo.updateEndpoint(tx, tenant, id, patch)
      return { ...endpointView({ ...row, ...patch }), secret, previous_secret_expires_at: grace > 0 ? until : null }
    })
  }

  /** Seal every signing secret under the current server secret (after a rotation, or plain ones from before sealing). */
  async resealSecrets(): Promise<number> {
    let after: string | null = null
    let count = 0
    for (;;) {
      const page = await repo.allEndpointSecrets(this.k.db, after, 500)
      if (page.length === 0) return count
      for (const e of page) {
        if (!needsReseal(this.k.secrets, e.secrets)) continue
        const sealed = sealSecrets(this.k.secrets, e.id, openSecrets(this.k.secrets, e.id, e.secrets))
        if (await repo.resealEndpointSecrets(this.k.db, e.id, e.secrets, sealed)) count++
      }
      after = page[page.length - 1].id
    }
  }

  /** A `webhook.test` event delivered to this endpoint only (the fan-out skips that type). */
  async testEndpoint(tenant: Tenant, id: string): Promise<WebhookDeliveryT> {
    return this.k.transaction(async (tx) => {
      const endpoint = await repo.findEndpoint(tx, tenant, id)
      if (!endpoint) throw notFound('webhook endpoint', id)
      if (endpoint.enabled !== 1) throw new AppError('webhook_endpoint_unavailable', 'The endpoint is disabled; enable it (PATCH enabled=true) before testing.')
      const event = await this.k.events.emit(tx, tenant, 'webhook.test', {
        object: 'webhook_test',
        endpoint_id: id,
        message: 'This is a test event from the webhooks module.',
      })
      const row = this.deliveryRow(tenant, event, id)
      await repo.insertDeliveries(tx, [row])
      await enqueue(tx, this.k.clock, this.deliverer.job, { delivery_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: 1 })
      return deliveryView(row)
    })
  }

  // ---- deliveries ----

  private deliveryRow(tenant: Tenant, event: EventEnvelope, endpointId: string): WebhookDeliveriesTable {
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
      created_at: iso(this.k.clock.now()),
      updated_at: iso(this.k.clock.now()),
    }
  }

  /**
   * The event subscriber: one delivery per subscribed enabled endpoint and one job per delivery, in one
   * transaction. The unique (event_id, endpoint_id) makes a re-run after a crash insert nothing.
   */
  /** Runs inside the emitting transaction: deliveries exist exactly when the event committed. */
  async fanOut(tx: Executor, event: EventEnvelope): Promise<void> {
    if (event.type === 'webhook.test') return
    const tenant: Tenant = { workspaceId: event.workspace_id, mode: event.livemode ? 'live' : 'test' }
    const endpoints = (await repo.enabledEndpoints(tx, tenant)).filter((e) => {
      const types = fromJson<string[]>(e.event_types, ['*'])
      return types.includes('*') || types.includes(event.type)
    })
    if (endpoints.length === 0) return
    const ids = await repo.insertDeliveries(tx, endpoints.map((e) => this.deliveryRow(tenant, event, e.id)))
    for (const id of ids) {
      await enqueue(tx, this.k.clock, this.deliverer.job, { delivery_id: id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: 1 })
    }
  }

  async listDeliveries(tenant: Tenant, q: DeliveryListQueryT): Promise<PageResult<WebhookDeliveryT>> {
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

  async getDelivery(tenant: Tenant, id: string): Promise<WebhookDeliveryDetailT> {
    const row = await repo.findDelivery(this.k.db, tenant, id)
    if (!row) throw notFound('webhook delivery', id)
    const attempts = await repo.listAttempts(this.k.db, tenant, id)
    return { ...deliveryView(row), attempts: attempts.map(attemptView) }
  }

  /** One more attempt of the same event (same event_id, same body) to the same endpoint, made by a job. */
  async replayDelivery(tenant: Tenant, id: string): Promise<WebhookDeliveryT> {
    return this.k.transaction(async (tx) => {
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

  // ---- event catalog ----

  listEventTypes(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<EventTypeViewT>> {
    return this.k.paginate({
      list: 'listEventCatalog',
      tenant,
      query: q,
      keyShape: EVENT_TYPE_SHAPE,
      fetch: async ({ after, limit }) => this.k.events.catalog().filter((t) => after === null || t.type > after).slice(0, limit + 1),
      key: (t) => t.type,
      view: (t) => ({
        object: 'event_type' as const,
        type: t.type,
        module: t.module,
        description: t.description,
        // Plain JSON (TypeBox schemas may carry non-JSON members).
        schema: JSON.parse(JSON.stringify(t.schema)) as Record<string, unknown>,
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
