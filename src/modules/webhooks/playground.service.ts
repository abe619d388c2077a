import { setTimeout as sleep } from 'node:timers/promises'
import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { idTime, newId, ulidTime } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Mode, Tenant } from '../../kernel/tenant.js'
import { PurgeScheduler } from './jobs/purge-playground.job.js'
import { playgroundToken } from './webhooks.destination.js'
import * as repo from './webhooks.repository.js'
import { openSecrets } from './webhooks.secrets.js'
import type { PlaygroundCaptureT, PlaygroundReceiptT } from './webhooks.schemas.js'
import { diagnoseSignature } from './webhooks.signing.js'
import type { WebhookPlaygroundCapturesTable } from './webhooks.tables.js'
import { captureView, envelopeBody } from './webhooks.views.js'

export const PLAYGROUND_TOKEN = /^[A-Za-z0-9_-]{22,64}$/
/** Bytes of a request body stored per capture; larger bodies are truncated (body_truncated). */
export const PLAYGROUND_MAX_BODY_BYTES = 256 * 1024
/** Captures kept per inbox (token + base URL); the oldest are dropped beyond it. */
export const PLAYGROUND_MAX_CAPTURES = 100
/** How often a Playground stream looks for new captures (in the database, so a capture on any node shows). */
export const PLAYGROUND_STREAM_POLL_MS = 300
/** A stream ends after this long; the client opens a new one with `after` (the last capture id it got). */
export const PLAYGROUND_STREAM_MAX_MS = 30 * 60_000
/** Ids are minted before their transaction commits: a capture committed up to this long after a newer one still shows. */
const STREAM_LOOKBACK_MS = 5_000
/** The smallest capture id of `ms` before the capture `id` (ids sort by the time they were made). */
const lookbackFloor = (id: string, ms: number): string => `whc_${ulidTime(idTime(id) - ms)}${'0'.repeat(16)}`

/** Credentials never stored: a Playground URL is shareable. */
const STRIPPED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key', 'x-auth-token', 'x-amz-security-token'])

export interface IncomingCapture {
  /** The request itself: the owner of its Idempotency-Key claim (see kernel.transaction). */
  owner: object
  method: string
  url: string
  headers: Record<string, string | string[] | undefined>
  body: Buffer | undefined
  ip: string
}

const utf8 = new TextDecoder('utf-8', { fatal: true })
function encodeBody(buf: Buffer): { body: string; encoding: 'utf8' | 'base64' } {
  try {
    const text = utf8.decode(buf)
    if (!text.includes('\u0000')) return { body: text, encoding: 'utf8' }
  } catch {
    /* binary */
  }
  return { body: buf.toString('base64'), encoding: 'base64' }
}

export class PlaygroundService {
  private readonly purge: PurgeScheduler

  constructor(
    private readonly k: Kernel,
    purgeJob: ConstructorParameters<typeof PurgeScheduler>[2],
  ) {
    this.purge = new PurgeScheduler(k.db, k.clock, purgeJob)
  }

  private inboxUrl(token: string, mode: Mode): string {
    return `${this.k.config.publicUrl}${mode === 'live' ? '/v2' : '/sandbox/v2'}/webhooks/playground/${token}`
  }

  private assertToken(token: string): void {
    if (!PLAYGROUND_TOKEN.test(token)) {
      throw new AppError('playground_token_invalid', 'A Playground token is 22–64 characters of A–Z, a–z, 0–9, _ and -; generate one with at least 128 random bits.')
    }
  }

  /** Record one request into the inbox of `token`. */
  async capture(token: string, mode: Mode, req: IncomingCapture): Promise<PlaygroundReceiptT> {
    this.assertToken(token)
    const now = this.k.clock.now()
    const raw = req.body && Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    const kept = raw.subarray(0, PLAYGROUND_MAX_BODY_BYTES)
    const { body, encoding } = encodeBody(kept)
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || STRIPPED_HEADERS.has(name)) continue
      headers[name] = Array.isArray(value) ? value.join(', ') : value
    }
    const [path, search = ''] = req.url.split(/\?(.*)/s)
    const query: Record<string, string | string[]> = {}
    for (const [key, value] of new URLSearchParams(search)) {
      const prev = query[key]
      query[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]
    }
    const deliveryHeader = headers['svc-delivery-id']
    const signature = deliveryHeader ? await this.diagnose(token, deliveryHeader, headers['svc-status-signature'], raw.toString('utf8'), now) : null
    const row: WebhookPlaygroundCapturesTable = {
      id: newId('whc', now.getTime()),
      token,
      mode,
      method: req.method,
      path,
      query: toJson(query),
      headers: toJson(headers),
      content_type: headers['content-type'] ?? null,
      body,
      body_encoding: encoding,
      body_size: raw.length,
      body_truncated: raw.length > kept.length ? 1 : 0,
      source_ip: req.ip,
      delivery_id: signature ? deliveryHeader : null,
      signature: signature ? toJson(signature) : null,
      received_at: iso(now),
    }
    const receipt = await this.k.transaction(req.owner, async (tx) => {
      await repo.insertCapture(tx, row)
      await repo.pruneInbox(tx, token, mode, PLAYGROUND_MAX_CAPTURES)
      return {
        object: 'webhook_playground_receipt' as const,
        capture_id: row.id,
        token,
        inbox_url: this.inboxUrl(token, mode),
        received_at: row.received_at,
        signature,
      }
    })
    await this.purge.ensureFor(now)
    return receipt
  }

  /** GET: record the request, then list the inbox newest first. */
  async captureAndList(token: string, mode: Mode, req: IncomingCapture, q: { cursor?: string; limit?: number }): Promise<PageResult<PlaygroundCaptureT>> {
    this.assertToken(token)
    // The cursor is bound to this inbox, as a list cursor is bound to its tenant.
    const inbox: Tenant = { workspaceId: `playground:${token}`, mode }
    return this.k.paginate({
      list: 'webhookPlayground',
      tenant: inbox,
      query: q,
      // The capture is recorded after the cursor is checked: a bad cursor records nothing.
      fetch: async (page) => {
        await this.capture(token, mode, req)
        return repo.listCaptures(this.k.db, token, mode, page)
      },
      key: (r) => r.id,
      view: captureView,
    })
  }

  /**
   * The live view of an inbox: `ready`, then the captures already there (oldest first, or only those after
   * `after`), then each new one as it is recorded, until `signal` aborts or PLAYGROUND_STREAM_MAX_MS passed.
   * It polls the database, so captures recorded by any node of the service show.
   */
  async stream(
    token: string,
    mode: Mode,
    after: string | undefined,
    follow: boolean,
    send: { ready(r: { object: 'webhook_playground_stream'; token: string; inbox_url: string }): void; capture(c: PlaygroundCaptureT): void },
    signal: AbortSignal,
  ): Promise<void> {
    this.assertToken(token)
    send.ready({ object: 'webhook_playground_stream', token, inbox_url: this.inboxUrl(token, mode) })
    const seen = new Set<string>()
    let newest: string | null = after ?? null
    const until = performance.now() + PLAYGROUND_STREAM_MAX_MS
    while (!signal.aborted && performance.now() < until) {
      let floor = newest ? lookbackFloor(newest, STREAM_LOOKBACK_MS) : null
      if (after && floor !== null && floor < after) floor = after
      const rows = await repo.capturesAfter(this.k.db, token, mode, floor, 2 * PLAYGROUND_MAX_CAPTURES)
      for (const r of rows) {
        if (seen.has(r.id) || signal.aborted) continue
        seen.add(r.id)
        send.capture(captureView(r))
        if (!newest || r.id > newest) newest = r.id
      }
      if (floor) for (const id of seen) if (id <= floor) seen.delete(id)
      if (!follow) return
      await sleep(PLAYGROUND_STREAM_POLL_MS, undefined, { signal }).catch(() => undefined)
    }
  }

  /** Only for one of our deliveries whose endpoint URL is this very Playground inbox. */
  private async diagnose(token: string, deliveryId: string, header: string | undefined, receivedBody: string, now: Date) {
    if (!/^whd_[0-9A-Z]{26}$/.test(deliveryId)) return null
    const d = await repo.deliveryForDiagnostics(this.k.db, deliveryId)
    if (!d || playgroundToken(d.url) !== token) return null
    const original = envelopeBody(d)
    const diagnosis = diagnoseSignature(header, receivedBody, original, openSecrets(this.k.secrets, d.endpoint_id, d.secrets), now)
    return { delivery_id: d.id, endpoint_id: d.endpoint_id, ...diagnosis }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    webhookPlayground: PlaygroundService
  }
}

/** What a capture keeps of a Fastify request (the route is registered raw: body is a Buffer). */
export function incoming(request: { method: string; url: string; headers: IncomingCapture['headers']; body: unknown; ip: string; routeOptions: { config: { mode?: Mode } } }) {
  return {
    mode: request.routeOptions.config.mode ?? 'live',
    req: { owner: request, method: request.method, url: request.url, headers: request.headers, body: Buffer.isBuffer(request.body) ? request.body : undefined, ip: request.ip },
  }
}
