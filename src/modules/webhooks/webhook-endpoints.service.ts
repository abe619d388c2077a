import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { WebhookDeliverer } from './jobs/deliver-webhook.job.js'
import { deliveryRow } from './webhook-deliveries.service.js'
import { checkEndpointUrl } from './webhooks.destination.js'
import * as repo from './webhooks.repository.js'
import type { CreateEndpointBodyT, UpdateEndpointBodyT, WebhookDeliveryT, WebhookEndpointT, WebhookEndpointWithSecretT } from './webhooks.schemas.js'
import { needsReseal, openSecrets, sealSecrets } from './webhooks.secrets.js'
import { newSecret } from './webhooks.signing.js'
import type { StoredSecret, WebhookEndpointsTable } from './webhooks.tables.js'
import { deliveryView, endpointView } from './webhooks.views.js'

/** Rotated-out secrets kept (not signing) so the Playground can say "secret rotated". */
const RETIRED_SECRETS_KEPT = 5
const DEFAULT_ROTATION_GRACE_SECONDS = 86400

/** Webhook endpoints (both path families call these): URL and event-type rules, sealed signing secrets, test events. */
export class WebhookEndpointsService {
  constructor(
    private readonly k: Kernel,
    private readonly deliverer: WebhookDeliverer,
  ) {}

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

  async list(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<WebhookEndpointT>> {
    return this.k.paginate({
      list: 'listWebhookEndpoints',
      tenant,
      query: q,
      fetch: (page) => repo.listEndpoints(this.k.db, tenant, page),
      key: (r) => r.id,
      view: endpointView,
    })
  }

  async create(tenant: Tenant, body: CreateEndpointBodyT): Promise<WebhookEndpointWithSecretT> {
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
      legacy_signature: body.legacy_signature ? 1 : 0,
      created_at: now,
      updated_at: now,
    }
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertEndpoint(tx, row)
      return { ...endpointView(row), secret, previous_secret_expires_at: null }
    })
  }

  async get(tenant: Tenant, id: string): Promise<WebhookEndpointT> {
    return endpointView(await this.endpointRow(tenant, id))
  }

  async update(tenant: Tenant, id: string, body: UpdateEndpointBodyT): Promise<WebhookEndpointT> {
    const row = await this.endpointRow(tenant, id)
    const now = iso(this.k.clock.now())
    const patch: Partial<WebhookEndpointsTable> = { updated_at: now }
    if (body.url !== undefined) patch.url = await this.validUrl(tenant, body.url)
    if (body.description !== undefined) patch.description = body.description
    if (body.event_types !== undefined) patch.event_types = toJson(this.validEventTypes(body.event_types))
    if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
    if (body.legacy_signature !== undefined) patch.legacy_signature = body.legacy_signature ? 1 : 0
    if (body.enabled === true && row.enabled !== 1) Object.assign(patch, { enabled: 1, disabled_reason: null, disabled_at: null, failing_since: null })
    if (body.enabled === false && row.enabled === 1) Object.assign(patch, { enabled: 0, disabled_reason: 'Disabled through the API.', disabled_at: now })
    return this.k.transaction(tenant, async (tx) => {
      await repo.updateEndpoint(tx, tenant, id, patch)
      return endpointView({ ...row, ...patch })
    })
  }

  /** Deleting stops its pending deliveries (they end as failed); their history stays listable. */
  async delete(tenant: Tenant, id: string): Promise<{ id: string; object: 'webhook_endpoint'; deleted: true }> {
    return this.k.transaction(tenant, async (tx) => {
      if (!(await repo.deleteEndpoint(tx, tenant, id))) throw notFound('webhook endpoint', id)
      return { id, object: 'webhook_endpoint' as const, deleted: true as const }
    })
  }

  async rotateSecret(tenant: Tenant, id: string, body: { grace_period_seconds?: number }): Promise<WebhookEndpointWithSecretT> {
    const now = this.k.clock.now()
    const grace = body.grace_period_seconds ?? DEFAULT_ROTATION_GRACE_SECONDS
    const until = iso(new Date(now.getTime() + grace * 1000))
    return this.k.transaction(tenant, async (tx) => {
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
  async reseal(): Promise<number> {
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
  async test(tenant: Tenant, id: string): Promise<WebhookDeliveryT> {
    return this.k.transaction(tenant, async (tx) => {
      const endpoint = await repo.findEndpoint(tx, tenant, id)
      if (!endpoint) throw notFound('webhook endpoint', id)
      if (endpoint.enabled !== 1) throw new AppError('webhook_endpoint_unavailable', 'The endpoint is disabled; enable it (PATCH enabled=true) before testing.')
      const event = await this.k.events.emit(tx, tenant, 'webhook.test', {
        object: 'webhook_test',
        endpoint_id: id,
        message: 'This is a test event from the webhooks module.',
      })
      const row = deliveryRow(this.k, tenant, event, id)
      await repo.insertDeliveries(tx, [row])
      await enqueue(tx, this.k.clock, this.deliverer.job, { delivery_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode, attempt: 1 })
      return deliveryView(row)
    })
  }
}
