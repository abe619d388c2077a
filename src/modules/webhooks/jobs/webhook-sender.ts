import { Agent } from 'undici'
import { API_VERSION } from '../../../kernel/events/events.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { checkDeliveryUrl, guardedLookup, openLookup } from '../webhooks.destination.js'
import { openSecrets } from '../webhooks.secrets.js'
import { activeSecrets, legacySignature, signatureHeaders } from '../webhooks.signing.js'
import type { AttemptSource } from '../webhooks.repository.js'
import { envelopeBody } from '../webhooks.views.js'
import { post } from './post-webhook.js'

const MAX_RETRY_AFTER_SECONDS = 24 * 3600

/** What one request to a receiver came to. */
export interface SendResult {
  ok: boolean
  status: number | null
  excerpt: string | null
  error: string | null
  durationMs: number
  retryAfterSeconds: number | null
}

/**
 * The HTTP side of a delivery: the signed request of an attempt, sent under the outbound address policy
 * (webhooks.destination.ts) through keep-alive pools, and the answer read as a SendResult (never thrown).
 */
export class WebhookSender {
  private readonly open: Agent
  private readonly guarded: Agent
  private readonly userAgent = `Svc-Webhooks/${API_VERSION} (+https://github.com/conversational-automation-service)`
  /** Origin and path of an endpoint URL, parsed once per URL (most deliveries go to a few). */
  private readonly targets = new Map<string, { origin: string; path: string }>()

  constructor(private readonly k: Kernel) {
    const timeout = k.config.webhooks.timeoutMs
    // Keep-alive pools per origin: most deliveries go to a few receivers, so connections are reused.
    const common = { keepAliveTimeout: 30_000, connections: 128, headersTimeout: timeout, bodyTimeout: timeout }
    this.open = new Agent({ ...common, connect: { timeout, lookup: openLookup } })
    this.guarded = new Agent({ ...common, connect: { timeout, lookup: guardedLookup } })
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.open.close(), this.guarded.close()])
  }

  /** The envelope and its headers, signed with the endpoint's secrets active now (docs/webhooks.md). */
  request(row: AttemptSource): { headers: Record<string, string>; body: string } {
    const body = envelopeBody(row)
    const secrets = openSecrets(this.k.secrets, row.endpoint_id, row.secrets ?? '[]')
    const sentAt = this.k.clock.now()
    const t = Math.floor(sentAt.getTime() / 1000)
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': this.userAgent,
      'svc-event-id': row.event_id,
      'svc-event-type': row.event_type,
      'svc-delivery-id': row.id,
      ...signatureHeaders(activeSecrets(secrets, sentAt), row.event_id, t, body),
    }
    // Deprecated, per endpoint: receivers still on API v1 (docs/migration-v1.md).
    const newest = activeSecrets(secrets, sentAt)[0]
    if (row.legacy_signature === 1 && newest) headers['x-svc-signature'] = legacySignature(newest, body)
    return { headers, body }
  }

  private target(url: string): { origin: string; path: string } {
    let t = this.targets.get(url)
    if (!t) {
      const u = new URL(url)
      if (this.targets.size >= 1000) this.targets.clear()
      this.targets.set(url, (t = { origin: u.origin, path: u.pathname + u.search }))
    }
    return t
  }

  async send(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
    const t0 = performance.now()
    const done = (r: Omit<SendResult, 'durationMs'>): SendResult => ({ ...r, durationMs: Math.round(performance.now() - t0) })
    let guarded: boolean
    try {
      guarded = (await checkDeliveryUrl(url, { publicUrl: this.k.config.publicUrl, allowPrivateNetworks: this.k.config.webhooks.allowPrivateNetworks })).guarded
    } catch (err) {
      return done({ ok: false, status: null, excerpt: null, error: (err as Error).message, retryAfterSeconds: null })
    }
    try {
      const res = await post(guarded ? this.guarded : this.open, this.target(url), headers, body, this.k.config.webhooks.timeoutMs)
      const s = res.status
      const ok = s >= 200 && s < 300
      const error = ok ? null : s >= 300 && s < 400 ? `HTTP ${s}: redirects are not followed; point the endpoint at the final URL.` : `HTTP ${s}`
      const retryAfter = s === 429 || s === 503 ? parseRetryAfter(res.retryAfter, this.k.clock.now()) : null
      return done({ ok, status: s, excerpt: res.excerpt, error, retryAfterSeconds: retryAfter })
    } catch (err) {
      const e = err as Error & { code?: string; cause?: Error & { code?: string } }
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError' || /timeout/i.test(e.code ?? '')
      const message = timedOut ? `No response within ${this.k.config.webhooks.timeoutMs} ms (WEBHOOK_TIMEOUT_MS).` : `${e.code ?? e.cause?.code ?? 'error'}: ${e.cause?.message ?? e.message}`
      return done({ ok: false, status: null, excerpt: null, error: message.slice(0, 1000), retryAfterSeconds: null })
    }
  }
}

function parseRetryAfter(v: string | string[] | undefined, now: Date): number | null {
  const raw = Array.isArray(v) ? v[0] : v
  if (!raw) return null
  if (/^\d+$/.test(raw.trim())) return Math.min(Number(raw.trim()), MAX_RETRY_AFTER_SECONDS)
  const at = Date.parse(raw)
  if (Number.isNaN(at)) return null
  return Math.min(Math.max(0, Math.ceil((at - now.getTime()) / 1000)), MAX_RETRY_AFTER_SECONDS)
}
