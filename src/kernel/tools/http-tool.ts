import { errors as undiciErrors, request } from 'undici'
import { signatureHeaders } from '../crypto/signature.js'
import type { Kernel } from '../kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../outbound/address-policy.js'
import { policyAgent } from '../outbound/policy-agent.js'
import type { StoredTool, ToolCallError, ToolContext, ToolRequest } from './tools.types.js'

/** Bytes of a tool's answer read at most; a larger answer is a failure (the model could not use it anyway). */
export const MAX_RESPONSE_BYTES = 64 * 1024
const USER_AGENT = 'svc-tools/2'
/** Shown instead of a header's secret value wherever a request is displayed. */
export const HIDDEN = '[hidden]'

/** Arguments as a query string: scalars as text, arrays as repeated keys, objects as JSON. */
function queryOf(args: Record<string, unknown>): URLSearchParams {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(args)) {
    for (const item of Array.isArray(v) ? v : [v]) {
      if (item === null || item === undefined) continue
      q.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item))
    }
  }
  return q
}

/**
 * The request a call sends. GET carries the arguments in the query string, other methods as a JSON body.
 * The signature covers the body, or for GET the request target (path and query) exactly as sent.
 * `hideSecrets` replaces the tool's header values (dry-runs, logs).
 */
export function buildToolRequest(k: Kernel, tool: StoredTool, args: Record<string, unknown>, ctx: ToolContext, signingSecret: string | null, hideSecrets = false): ToolRequest {
  const method = tool.method ?? 'POST'
  const url = new URL(tool.url!)
  let body: string | null = null
  if (method === 'GET') {
    for (const [key, value] of queryOf(args)) url.searchParams.append(key, value)
  } else {
    body = JSON.stringify(args)
  }
  const own: Record<string, string> = tool.headers_sealed ? JSON.parse(k.secrets.open(tool.headers_sealed, tool.owner_id)) : {}
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = hideSecrets ? HIDDEN : value
  headers['user-agent'] = USER_AGENT
  headers.accept = 'application/json, text/plain;q=0.9, */*;q=0.1'
  if (body !== null) headers['content-type'] = 'application/json'
  headers['idempotency-key'] = ctx.idempotencyKey
  if (signingSecret) {
    const t = Math.floor(k.clock.now().getTime() / 1000)
    Object.assign(headers, signatureHeaders([signingSecret], ctx.idempotencyKey, t, body ?? `${url.pathname}${url.search}`))
  }
  return { method, url: url.href, headers, body }
}

export interface HttpOutcome {
  ok: boolean
  status: number | null
  output: unknown
  error: ToolCallError | null
}

const fail = (code: string, detail: string, status: number | null = null, output: unknown = null): HttpOutcome => ({ ok: false, status, output, error: { code, detail } })

function parseAnswer(text: string, contentType: string | undefined): unknown {
  if (text === '') return null
  if (/json/i.test(contentType ?? '') || /^\s*[[{"]/.test(text)) {
    try {
      return JSON.parse(text)
    } catch {
      return text
    }
  }
  return text
}

function refusedOf(err: unknown): OutboundUrlRefused | null {
  for (let e = err as { cause?: unknown } | null | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (e instanceof OutboundUrlRefused) return e
  }
  return null
}

/** Sends the request under the outbound policy and the tool's deadline. Never throws. */
export async function sendToolRequest(k: Kernel, req: ToolRequest, timeoutMs: number, signal?: AbortSignal | null): Promise<HttpOutcome> {
  const allowPrivateNetworks = k.config.outbound.allowPrivateNetworks
  try {
    await checkOutboundUrl(req.url, { allowPrivateNetworks })
  } catch (err) {
    if (err instanceof OutboundUrlRefused) return fail('url_refused', `The tool's URL is refused: ${err.message}`)
    return fail('url_refused', "The tool's URL could not be checked.")
  }
  const deadline = AbortSignal.timeout(timeoutMs)
  const both = signal ? AbortSignal.any([deadline, signal]) : deadline
  try {
    const res = await request(req.url, { method: req.method, headers: req.headers, body: req.body ?? undefined, dispatcher: policyAgent(allowPrivateNetworks), signal: both })
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length
      if (size > MAX_RESPONSE_BYTES) {
        res.body.destroy()
        return fail('response_too_large', `The tool answered with more than ${MAX_RESPONSE_BYTES / 1024} KiB.`, res.statusCode)
      }
      chunks.push(chunk as Buffer)
    }
    const contentType = res.headers['content-type']
    const output = parseAnswer(Buffer.concat(chunks).toString('utf8'), Array.isArray(contentType) ? contentType[0] : contentType)
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, status: res.statusCode, output, error: null }
    if (res.statusCode >= 300 && res.statusCode < 400) {
      return fail('redirect_not_followed', `The tool answered HTTP ${res.statusCode} (a redirect to ${String(res.headers.location ?? 'nowhere')}); redirects are not followed.`, res.statusCode, output)
    }
    return fail('http_error', `The tool answered HTTP ${res.statusCode}.`, res.statusCode, output)
  } catch (err) {
    if (signal?.aborted) return fail('cancelled', 'The call was cancelled before the tool answered.')
    if (deadline.aborted) return fail('timeout', `The tool did not answer within ${timeoutMs} ms.`)
    const refused = refusedOf(err)
    if (refused) return fail('url_refused', `The tool's URL is refused at connect time: ${refused.message}`)
    const code = (err as { code?: string }).code
    if (err instanceof undiciErrors.UndiciError || code) return fail('connection_failed', `The tool could not be reached (${code ?? (err as Error).name}).`)
    return fail('connection_failed', 'The tool could not be reached.')
  }
}
