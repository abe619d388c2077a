import { request } from 'undici'
import type { Kernel } from '../../../kernel/kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../../../kernel/outbound/address-policy.js'
import { policyAgent } from '../../../kernel/outbound/policy-agent.js'
import type { CrmFailure } from './crm.types.js'

// One request to a CRM under the kernel's outbound policy (SSRF) and a deadline, and the classification
// of what came back. The kernel's HTTP-tool sender does not fit: it drops the response headers, and a
// 429's Retry-After is what the sync job schedules its retry by.

export const DEFAULT_TIMEOUT_MS = 10_000
/** A CRM answer larger than this is not read (a contact, a search page of one, a receiver's ack). */
export const MAX_RESPONSE_BYTES = 1024 * 1024
const USER_AGENT = 'svc-crm/1'
/** Longest CRM message kept: it ends up as the lead's last sync error. */
const MAX_MESSAGE_CHARS = 1000

export interface CrmRequest {
  method: 'GET' | 'POST' | 'PATCH'
  url: string
  headers: Record<string, string>
  body?: string
}

export interface CrmResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The body parsed as JSON, or null when it is empty or not JSON. */
  json: unknown
}

export interface SendOptions {
  timeoutMs: number
  signal?: AbortSignal
  /** Refuse plain http (a bearer token must not cross the network in clear). */
  requireHttps?: boolean
  /** "HubSpot", "The receiver": how messages name the other side. */
  peer: string
}

export const failure = (code: string, message: string, retryable: boolean, status: number | null = null, retryAfterMs: number | null = null): CrmFailure => ({
  ok: false,
  retryable,
  retry_after_ms: retryAfterMs,
  status,
  code,
  message: message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message,
})

function refusedOf(err: unknown): OutboundUrlRefused | null {
  for (let e = err as { cause?: unknown } | null | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof OutboundUrlRefused) return e
  }
  return null
}

/** The URL rules before any address check: absolute, no credentials, https where asked. */
function shapeProblem(raw: string, opts: SendOptions, allowPrivateNetworks: boolean): string | null {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return `${raw} is not an absolute URL.`
  }
  if (url.username || url.password) return 'The URL must not contain credentials.'
  // Plain http is for tests and single-box installs, which are exactly where private networks are allowed.
  if (opts.requireHttps && url.protocol === 'http:' && !allowPrivateNetworks) return 'The URL must use https.'
  return null
}

/** Sends one request; a response of any status is `{ ok: true }`. Never throws. */
export async function sendCrmRequest(k: Kernel, req: CrmRequest, opts: SendOptions): Promise<{ ok: true; res: CrmResponse } | { ok: false; failure: CrmFailure }> {
  const allowPrivateNetworks = k.config.outbound.allowPrivateNetworks
  const fail = (f: CrmFailure) => ({ ok: false as const, failure: f })
  const shape = shapeProblem(req.url, opts, allowPrivateNetworks)
  if (shape) return fail(failure('url_refused', shape, false))
  try {
    await checkOutboundUrl(req.url, { allowPrivateNetworks })
  } catch (err) {
    // A name that does not resolve now may resolve in a minute (a DNS outage): worth a retry.
    if (err instanceof OutboundUrlRefused && err.reason === 'unresolvable') return fail(failure('connection_failed', err.message, true))
    return fail(failure('url_refused', `The URL is refused: ${err instanceof Error ? err.message : String(err)}`, false))
  }
  if (opts.signal?.aborted) return fail(failure('cancelled', 'The sync was cancelled before the request was sent.', true))
  const deadline = AbortSignal.timeout(opts.timeoutMs)
  const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', ...req.headers }
  if (req.body !== undefined) headers['content-type'] = 'application/json'
  try {
    const res = await request(req.url, { method: req.method, headers, body: req.body, dispatcher: policyAgent(allowPrivateNetworks, 16), signal })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length
      if (size > MAX_RESPONSE_BYTES) {
        res.body.destroy()
        return fail(failure('response_too_large', `${opts.peer} answered with more than ${MAX_RESPONSE_BYTES / 1024} KiB.`, false, res.statusCode))
      }
      chunks.push(chunk as Buffer)
    }
    const text = Buffer.concat(chunks).toString('utf8')
    return { ok: true, res: { status: res.statusCode, headers: res.headers, text, json: parseJson(text) } }
  } catch (err) {
    if (opts.signal?.aborted) return fail(failure('cancelled', `The sync was cancelled before ${opts.peer} answered.`, true))
    if (deadline.aborted) return fail(failure('timeout', `${opts.peer} did not answer within ${opts.timeoutMs} ms.`, true))
    const refused = refusedOf(err)
    if (refused) return fail(failure('url_refused', `The URL is refused at connect time: ${refused.message}`, false))
    const code = (err as { code?: string }).code
    return fail(failure('connection_failed', `${opts.peer} could not be reached (${code ?? (err as Error).name ?? 'error'}).`, true))
  }
}

function parseJson(text: string): unknown {
  if (!/^\s*[[{]/.test(text)) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3); a date in
 * the past is 0. Null when absent or unreadable (the job falls back to its own backoff).
 */
export function retryAfterMs(value: string | string[] | undefined, now: Date): number | null {
  const v = (Array.isArray(value) ? value[0] : value)?.trim()
  if (!v) return null
  if (/^\d+$/.test(v)) return Number(v) * 1000
  // Date.parse reads bare numbers and odd strings as dates; an HTTP-date always names its day or month.
  if (!/[A-Za-z]{3}/.test(v)) return null
  const at = Date.parse(v)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}

/** The other side's own words: HubSpot's `message`, a problem+json `detail`, or the start of a text body. */
export function messageOf(res: CrmResponse, peer: string): string {
  const j = res.json as Record<string, unknown> | null
  if (j && typeof j === 'object' && !Array.isArray(j)) {
    for (const key of ['message', 'detail', 'error_description', 'error', 'title']) {
      const v = j[key]
      if (typeof v === 'string' && v.trim() !== '') return v.trim()
    }
  }
  const text = res.text.trim()
  if (text !== '' && res.json === null && !/^\s*</.test(text)) return `${peer} answered HTTP ${res.status}: ${text.slice(0, 300)}`
  return `${peer} answered HTTP ${res.status}.`
}

// 4xx that say "not now" rather than "never": request timeout, locked record (HubSpot answers 423 while
// a contact is being merged), too early.
const RETRYABLE_4XX = new Set([408, 423, 425])
const CODE_4XX: Record<number, string> = { 400: 'bad_request', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 409: 'conflict', 422: 'unprocessable' }

/** A non-2xx answer as a CrmFailure: 429 and 5xx retryable, other 4xx permanent with the CRM's message. */
export function classifyResponse(res: CrmResponse, peer: string, now: Date): CrmFailure {
  const message = messageOf(res, peer)
  const s = res.status
  if (s === 429) return failure('rate_limited', message, true, s, retryAfterMs(res.headers['retry-after'], now))
  if (s >= 500) return failure('server_error', message, true, s, retryAfterMs(res.headers['retry-after'], now))
  if (RETRYABLE_4XX.has(s)) return failure('temporarily_unavailable', message, true, s, retryAfterMs(res.headers['retry-after'], now))
  if (s >= 300 && s < 400) {
    return failure('redirect_not_followed', `${peer} answered HTTP ${s} (a redirect to ${String(res.headers.location ?? 'nowhere')}); redirects are not followed.`, false, s)
  }
  return failure(CODE_4XX[s] ?? 'rejected', message, false, s)
}

export const is2xx = (res: CrmResponse) => res.status >= 200 && res.status < 300
