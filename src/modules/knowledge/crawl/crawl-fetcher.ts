// Polite, SSRF-checked HTTP GETs for the crawler. Redirects are followed here, hop by hop, so that every
// hop is judged by the outbound address policy (checkOutboundUrl before the request, policyLookup at
// connect time: a name cannot resolve publicly for the check and privately for the socket).
import type { LookupFunction } from 'node:net'
import { Agent, request } from 'undici'
import { checkOutboundUrl, checkRedirect, OutboundUrlRefused, policyLookup } from '../../../kernel/outbound/address-policy.js'

export interface FetchPolicy {
  allowPrivateNetworks: boolean
  /** The resolver underneath (tests stand in for DNS with it). */
  lookup?: LookupFunction
}

export interface FetcherOptions {
  policy: FetchPolicy
  userAgent: string
  timeoutMs: number
  maxRedirects: number
  perHostConcurrency: number
  /** The least time between two request starts on one host (raised per host by robots.txt Crawl-delay). */
  minDelayMs: number
}

export interface Validators {
  etag: string | null
  lastModified: string | null
}

export interface FetchRequest {
  url: string
  /** Read the body of a 200 answer of this type? (Otherwise it is discarded unread.) */
  accept(contentType: string | null): boolean
  maxBytes: number
  /** Validators for a conditional request to this hop's URL (If-None-Match / If-Modified-Since). */
  validators?(url: string): Validators | null
  signal?: AbortSignal
}

export type FetchOutcome =
  | { kind: 'response'; url: string; status: number; contentType: string | null; headers: Record<string, string>; body: Buffer | null; tooLarge: boolean }
  | { kind: 'refused'; url: string; reason: string }
  | { kind: 'error'; url: string; reason: string }

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Waits `ms`, or less when `signal` aborts; its listener is removed either way (one crawl signal, many waits). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve()
    const done = () => {
      clearTimeout(t)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    const t = setTimeout(done, ms)
    signal?.addEventListener('abort', done, { once: true })
  })

/** A request's signal: the crawl's, or the request's own timeout. `release` unhooks it from the crawl's signal. */
function requestSignal(parent: AbortSignal | undefined, timeoutMs: number): { signal: AbortSignal; release(): void } {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(new DOMException('The request timed out.', 'TimeoutError')), timeoutMs)
  const onAbort = () => controller.abort(parent?.reason)
  if (parent?.aborted) controller.abort(parent.reason)
  else parent?.addEventListener('abort', onAbort, { once: true })
  return {
    signal: controller.signal,
    release() {
      clearTimeout(timer)
      parent?.removeEventListener('abort', onAbort)
    },
  }
}

/** Drops a body unread (or half read): undici reports the abort as an 'error' event, which is expected here. */
function discard(body: NodeJS.ReadableStream & { destroy(): void }): void {
  body.on('error', () => {})
  body.destroy()
}

interface HostState {
  active: number
  waiters: (() => void)[]
  lastAt: number
  nextAt: number
  delayMs: number
}

/** Per-host concurrency and spacing of request starts. */
class HostGate {
  private readonly hosts = new Map<string, HostState>()
  constructor(
    private readonly concurrency: number,
    private readonly minDelayMs: number,
  ) {}

  private state(host: string): HostState {
    let s = this.hosts.get(host)
    if (!s) this.hosts.set(host, (s = { active: 0, waiters: [], lastAt: 0, nextAt: 0, delayMs: this.minDelayMs }))
    return s
  }

  setDelay(host: string, ms: number): void {
    const s = this.state(host)
    s.delayMs = Math.max(this.minDelayMs, ms)
    // The request that read robots.txt was spaced by the old delay: the next one waits the new delay after it.
    if (s.lastAt > 0) s.nextAt = Math.max(s.nextAt, s.lastAt + s.delayMs)
  }

  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    const s = this.state(host)
    while (s.active >= this.concurrency) await new Promise<void>((r) => s.waiters.push(r))
    s.active++
    // The slot is taken when the wait is over, from the actual time: a timer that fires late (a busy
    // process) must push the next request back, not shorten the gap to it.
    for (;;) {
      const now = Date.now()
      if (now >= s.nextAt) {
        s.lastAt = now
        s.nextAt = now + s.delayMs
        break
      }
      try {
        await sleep(s.nextAt - now, signal)
      } catch (err) {
        s.active--
        s.waiters.shift()?.()
        throw err
      }
    }
    return () => {
      s.active--
      s.waiters.shift()?.()
    }
  }
}

function describe(err: unknown): { refused: boolean; reason: string } {
  const e = err as Error & { code?: string; cause?: Error & { code?: string } }
  const inner = e instanceof OutboundUrlRefused ? e : e.cause instanceof OutboundUrlRefused ? e.cause : null
  if (inner) return { refused: true, reason: `refused by the outbound address policy: ${inner.message}` }
  if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT') {
    return { refused: false, reason: 'timed out' }
  }
  const code = e.code ?? e.cause?.code
  return { refused: false, reason: `network error${code ? ` (${code})` : ''}: ${e.cause?.message ?? e.message}` }
}

export class Fetcher {
  private readonly agent: Agent
  private readonly gate: HostGate

  constructor(private readonly o: FetcherOptions) {
    const timeout = o.timeoutMs
    this.agent = new Agent({
      connections: o.perHostConcurrency,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      connect: { timeout, lookup: policyLookup(o.policy) },
    })
    this.gate = new HostGate(o.perHostConcurrency, o.minDelayMs)
  }

  /** robots.txt Crawl-delay for one host (capped by the caller). */
  setCrawlDelay(host: string, ms: number): void {
    this.gate.setDelay(host, ms)
  }

  async close(): Promise<void> {
    await this.agent.close()
  }

  async fetch(req: FetchRequest): Promise<FetchOutcome> {
    let hop = req.url
    for (let redirects = 0; ; redirects++) {
      try {
        await checkOutboundUrl(hop, { ...this.o.policy, allowedSchemes: ['http', 'https'] })
      } catch (err) {
        if (err instanceof OutboundUrlRefused && err.reason === 'unresolvable') return { kind: 'error', url: hop, reason: err.message }
        return { kind: 'refused', url: hop, reason: describe(err).reason }
      }
      const answer = await this.once(hop, req)
      if (answer.kind !== 'redirect') return answer
      if (redirects >= this.o.maxRedirects) return { kind: 'error', url: hop, reason: `more than ${this.o.maxRedirects} redirects` }
      try {
        hop = (await checkRedirect(answer.location, hop, this.o.policy)).url.href
      } catch (err) {
        return { kind: 'refused', url: hop, reason: `redirect to ${answer.location} ${describe(err).reason}` }
      }
    }
  }

  private async once(url: string, req: FetchRequest): Promise<FetchOutcome | { kind: 'redirect'; location: string }> {
    const host = new URL(url).host
    const release = await this.gate.acquire(host, req.signal)
    const { signal, release: unhook } = requestSignal(req.signal, this.o.timeoutMs)
    try {
      const headers: Record<string, string> = {
        'user-agent': this.o.userAgent,
        accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/xml;q=0.5,*/*;q=0.1',
      }
      const v = req.validators?.(url)
      if (v?.etag) headers['if-none-match'] = v.etag
      if (v?.lastModified) headers['if-modified-since'] = v.lastModified
      const res = await request(url, { method: 'GET', headers, dispatcher: this.agent, signal })
      const flat: Record<string, string> = {}
      for (const [k, val] of Object.entries(res.headers)) if (val !== undefined) flat[k] = Array.isArray(val) ? val.join(', ') : val
      const contentType = flat['content-type'] ?? null
      if (REDIRECTS.has(res.statusCode) && flat.location) {
        discard(res.body)
        return { kind: 'redirect', location: flat.location }
      }
      const base = { kind: 'response' as const, url, status: res.statusCode, contentType, headers: flat }
      if (res.statusCode !== 200 || !req.accept(contentType)) {
        discard(res.body)
        return { ...base, body: null, tooLarge: false }
      }
      const declared = Number(flat['content-length'])
      if (Number.isFinite(declared) && declared > req.maxBytes) {
        discard(res.body)
        return { ...base, body: null, tooLarge: true }
      }
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length
        if (size > req.maxBytes) {
          discard(res.body)
          return { ...base, body: null, tooLarge: true }
        }
        chunks.push(chunk as Buffer)
      }
      return { ...base, body: Buffer.concat(chunks), tooLarge: false }
    } catch (err) {
      const d = describe(err)
      return { kind: d.refused ? 'refused' : 'error', url, reason: d.reason }
    } finally {
      unhook()
      release()
    }
  }
}
