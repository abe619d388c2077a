import { request } from 'undici'
import type { Kernel } from '../kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../outbound/address-policy.js'
import { policyAgent } from '../outbound/policy-agent.js'

// One request to Twilio under the kernel's outbound policy (SSRF) and one deadline that also bounds the
// body. crm.http.ts does not fit: it sends JSON and reads text, Twilio takes forms and serves audio.
// Transport failures throw CarrierError here; what a status code means is the adapter's business.
// Shared by every module that talks to Twilio (voice calls, messaging channels): no domain here.

const USER_AGENT = 'svc-twilio/1'

/** A carrier request that failed: `retryable` for 429 / 5xx / network; `status` the carrier's HTTP status. */
export class CarrierError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status: number | null = null,
    readonly carrierCode: string | number | null = null,
  ) {
    super(message)
  }
}
const POOL_CONNECTIONS = 16

export interface TwilioHttpRequest {
  method: 'GET' | 'POST' | 'DELETE'
  url: string
  /** The Authorization header, or null (a redirect to another host must not carry the credentials). */
  authorization: string | null
  form?: URLSearchParams
  accept: string
}

export interface TwilioHttpResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export interface TwilioHttpOptions {
  timeoutMs: number
  maxBytes: number
  /** How messages name what was being fetched ("Twilio", "The recording"). */
  peer: string
}

function refusedOf(err: unknown): OutboundUrlRefused | null {
  for (let e = err as { cause?: unknown } | null | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof OutboundUrlRefused) return e
  }
  return null
}

/**
 * Shape and address checks of a URL about to be fetched. Plain http only where private networks are
 * allowed (tests, single-box installs): account credentials must not cross a network in clear.
 */
export async function checkTwilioUrl(k: Kernel, raw: string): Promise<URL> {
  const allowPrivateNetworks = k.config.outbound.allowPrivateNetworks
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new CarrierError(`The Twilio URL ${raw} is not an absolute URL.`, false)
  }
  if (url.username || url.password) throw new CarrierError('The Twilio URL must not contain credentials.', false)
  if (url.protocol === 'http:' && !allowPrivateNetworks) throw new CarrierError('The Twilio URL must use https.', false)
  try {
    await checkOutboundUrl(url.href, { allowPrivateNetworks, allowedSchemes: ['http', 'https'] })
  } catch (err) {
    // A name that does not resolve now may resolve in a minute (a DNS outage): worth a retry.
    if (err instanceof OutboundUrlRefused && err.reason === 'unresolvable') throw new CarrierError(err.message, true)
    throw new CarrierError(`The Twilio URL is refused: ${err instanceof Error ? err.message : String(err)}`, false)
  }
  return url
}

/** Sends one request (no redirects followed); any status comes back, transport failures throw CarrierError. */
export async function sendTwilioRequest(k: Kernel, req: TwilioHttpRequest, opts: TwilioHttpOptions, deadline = AbortSignal.timeout(opts.timeoutMs)): Promise<TwilioHttpResponse> {
  await checkTwilioUrl(k, req.url)
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: req.accept }
  if (req.authorization) headers.authorization = req.authorization
  if (req.form) headers['content-type'] = 'application/x-www-form-urlencoded'
  try {
    const res = await request(req.url, {
      method: req.method,
      headers,
      body: req.form?.toString(),
      dispatcher: policyAgent(k.config.outbound.allowPrivateNetworks, POOL_CONNECTIONS),
      signal: deadline,
    })
    const tooLarge = () => new CarrierError(`${opts.peer} answered with more than ${opts.maxBytes} bytes; not read.`, false, res.statusCode)
    if (Number(res.headers['content-length'] ?? 0) > opts.maxBytes) {
      // Destroyed unread, undici reports the abort as an 'error' event later: nobody is left to hear it.
      res.body.on('error', () => {}).destroy()
      throw tooLarge()
    }
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length
      if (size > opts.maxBytes) {
        res.body.on('error', () => {}).destroy()
        throw tooLarge()
      }
      chunks.push(chunk as Buffer)
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }
  } catch (err) {
    if (err instanceof CarrierError) throw err
    if (deadline.aborted) throw new CarrierError(`${opts.peer} did not answer within ${opts.timeoutMs} ms.`, true)
    const refused = refusedOf(err)
    if (refused) throw new CarrierError(`The Twilio URL is refused at connect time: ${refused.message}`, false)
    const code = (err as { code?: string }).code
    throw new CarrierError(`${opts.peer} could not be reached (${code ?? (err as Error).name ?? 'error'}).`, true)
  }
}

const RETRYABLE_4XX = new Set([408, 429])

export const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status)

export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'))
  } catch {
    return null
  }
}

/** Twilio's error JSON `{ code, message, more_info, status }` as a CarrierError (retryable: 408, 429, 5xx). */
export function twilioErrorOf(res: TwilioHttpResponse): CarrierError {
  if (isRedirect(res.status)) return new CarrierError(`Twilio answered HTTP ${res.status} (a redirect); not followed.`, false, res.status)
  const j = parseJson(res.body) as { code?: unknown; message?: unknown; detail?: unknown } | null
  const code = typeof j?.code === 'number' || typeof j?.code === 'string' ? j.code : null
  const said = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)
  // 401 says only "Authenticate"; the why is in `detail`.
  const text = [said(j?.message), said(j?.detail)].filter(Boolean).join(': ') || null
  const retryable = res.status >= 500 || RETRYABLE_4XX.has(res.status)
  const message = code !== null ? `Twilio ${code}: ${text ?? `HTTP ${res.status}`}` : `Twilio answered HTTP ${res.status}${text ? `: ${text}` : '.'}`
  return new CarrierError(message.length > 1000 ? `${message.slice(0, 999)}…` : message, retryable, res.status, code)
}
