// The runtime every generated method calls: options, headers, one request with its retries and timeout,
// decoding, and the base classes of the namespaces.

import { randomUUID } from 'node:crypto'
import { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js'
import { APIError, ConnectionError, SvcError, TimeoutError } from './errors.js'
import { API_VERSION, DEFAULT_BASE_URL, VERSION } from './generated/version.js'
import { encodeQuery, isJson, pathOf, resolveBaseUrl } from './http/request.js'
import { isRetryableStatus, retryDelayMs, sleep } from './http/retry.js'
import { Page, PagePromise, type ListBody } from './pagination.js'
import { EventStream, StreamPromise } from './sse.js'

export { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface ClientOptions {
  /** `svc_live_…` or `svc_test_…` (default: the SVC_API_KEY environment variable). */
  apiKey?: string
  /**
   * The API's origin (default https://api.example.com); `/v2` (live keys) or `/sandbox/v2` (test keys) is
   * appended unless the URL already ends with it.
   */
  baseUrl?: string
  /** Retries after a network error, 429, 500, 502, 503 or 504 (default 2). */
  maxRetries?: number
  /** Milliseconds for each attempt (default 60 000). For event streams: until the stream opens. */
  timeout?: number
  /** Sent as `Svc-Api-Version` (default: the version this client was generated from). */
  apiVersion?: string
  /** Headers sent with every request. */
  defaultHeaders?: Record<string, string>
  /** The fetch to use (default: the platform's). */
  fetch?: typeof fetch
}

export interface RequestOptions {
  /** The API key for this call only (another workspace's, a restricted key…); the client's otherwise. */
  apiKey?: string
  /** The `Idempotency-Key` (default: a new UUID v4 per call of a POST/PUT/PATCH/DELETE, the same on each retry). */
  idempotencyKey?: string
  /** Milliseconds for each attempt of this call. */
  timeout?: number
  /** Retries for this call. */
  maxRetries?: number
  /** `Svc-Api-Version` for this call. */
  apiVersion?: string
  /** Extra headers (a null value removes a header the client would send). */
  headers?: Record<string, string | null | undefined>
  /** Aborts the call (and any wait between attempts). */
  signal?: AbortSignal
}

/** What a generated method asks the runtime for. */
export interface OperationSpec {
  operationId: string
  method: HttpMethod
  /** Relative to the base URL: `/leads/{id}`. */
  path: string
  /** The values of the path's `{name}` parameters (URL-encoded into it; an empty one is a TypeError). */
  pathParams?: Record<string, string>
  query?: object
  body?: unknown
  /** Sends an `Idempotency-Key` (generated when the caller gave none). */
  idempotent?: boolean
  /** Needs no API key. */
  public?: boolean
  /** The operation also answers a file of this type (returned as a Buffer). */
  fileMediaType?: string
}

const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_MAX_RETRIES = 2

function userAgent(): string {
  const runtime = typeof process !== 'undefined' && process.versions?.node ? `node ${process.versions.node}` : 'unknown runtime'
  return `svc-node/${VERSION} (${runtime})`
}

function envApiKey(): string | undefined {
  return typeof process !== 'undefined' ? process.env?.SVC_API_KEY || undefined : undefined
}

function describe(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } }
  const cause = e?.cause?.code ?? e?.cause?.message
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`
}

/** The HTTP machinery of the client; the generated SvcResources and the Svc class build on it. */
export class BaseClient {
  readonly baseUrl: string
  readonly maxRetries: number
  readonly timeout: number
  readonly apiVersion: string
  readonly defaultHeaders: Record<string, string>
  /** The response of the last request that got one (success or error). */
  lastResponse: ResponseInfo | null = null
  readonly #apiKey: string | undefined
  readonly #fetch: typeof fetch
  readonly #options: ClientOptions

  constructor(options: ClientOptions = {}) {
    this.#options = { ...options }
    this.#apiKey = options.apiKey ?? envApiKey()
    this.baseUrl = resolveBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL, this.#apiKey)
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
    this.timeout = options.timeout ?? DEFAULT_TIMEOUT_MS
    this.apiVersion = options.apiVersion ?? API_VERSION
    this.defaultHeaders = { ...(options.defaultHeaders ?? {}) }
    const f = options.fetch ?? globalThis.fetch
    if (typeof f !== 'function') throw new SvcError('No fetch: use Node 18 or later, or pass options.fetch')
    this.#fetch = f
    if (!Number.isInteger(this.maxRetries) || this.maxRetries < 0) throw new TypeError('maxRetries must be a non-negative integer')
    if (!(this.timeout > 0)) throw new TypeError('timeout must be a positive number of milliseconds')
  }

  /** The API key (not enumerable, so it stays out of logs of the client). */
  get apiKey(): string | undefined {
    return this.#apiKey
  }

  /** A client like this one with some options changed. */
  withOptions(overrides: ClientOptions): this {
    const Ctor = this.constructor as new (o: ClientOptions) => this
    return new Ctor({ ...this.#options, ...overrides })
  }

  /** @internal A JSON (or file) operation. */
  _request<T>(spec: OperationSpec, options?: RequestOptions): ApiPromise<T> {
    return new ApiPromise<T>(this.#execute(spec, options, false) as Promise<WithResponse<T>>)
  }

  /** @internal A list operation: the first page, iterable across pages. */
  _requestPage<T>(spec: OperationSpec, options?: RequestOptions): PagePromise<T> {
    const fetchPage = (cursor?: string): PagePromise<T> => {
      const s = cursor === undefined ? spec : { ...spec, query: { ...(spec.query ?? {}), cursor } }
      return new PagePromise<T>(this.#execute(s, options, false).then(({ data, response }) => ({ data: new Page<T>(data as ListBody<T>, response, fetchPage), response })))
    }
    return fetchPage()
  }

  /** @internal An operation answering Server-Sent Events. */
  _requestStream<T = unknown>(spec: OperationSpec, options?: RequestOptions): StreamPromise<T> {
    return new StreamPromise<T>(this.#execute(spec, options, true) as Promise<WithResponse<EventStream<T>>>)
  }

  #headers(spec: OperationSpec, options: RequestOptions, idempotencyKey: string | undefined, stream: boolean): Record<string, string> {
    const h: Record<string, string> = {
      accept: stream ? 'text/event-stream' : (spec.fileMediaType ?? 'application/json'),
      'user-agent': userAgent(),
      'svc-api-version': options.apiVersion ?? this.apiVersion,
    }
    const apiKey = options.apiKey ?? this.#apiKey
    if (!spec.public && apiKey) h.authorization = `Bearer ${apiKey}`
    if (spec.body !== undefined) h['content-type'] = 'application/json'
    if (idempotencyKey) h['idempotency-key'] = idempotencyKey
    for (const extra of [this.defaultHeaders, options.headers ?? {}]) {
      for (const [k, v] of Object.entries(extra)) {
        if (v === undefined || v === null) delete h[k.toLowerCase()]
        else h[k.toLowerCase()] = String(v)
      }
    }
    return h
  }

  async #execute(spec: OperationSpec, options: RequestOptions = {}, stream: boolean): Promise<WithResponse<unknown>> {
    if (!spec.public && !(options.apiKey ?? this.#apiKey)) throw new SvcError('No API key: pass { apiKey } or set SVC_API_KEY')
    const maxRetries = options.maxRetries ?? this.maxRetries
    const timeout = options.timeout ?? this.timeout
    const idempotencyKey = options.idempotencyKey ?? (spec.idempotent ? randomUUID() : undefined)
    const qs = spec.query ? encodeQuery(spec.query) : ''
    const path = spec.pathParams ? pathOf(spec.path, spec.pathParams) : spec.path
    const url = `${this.baseUrl}${path}${qs ? `?${qs}` : ''}`
    const headers = this.#headers(spec, options, idempotencyKey, stream)
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
    const what = `${spec.method} ${path}`

    for (let retry = 0; ; retry++) {
      if (options.signal?.aborted) throw options.signal.reason
      const controller = new AbortController()
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        controller.abort(new TimeoutError(`No answer to ${what} within ${timeout} ms`))
      }, timeout)
      const onAbort = () => controller.abort(options.signal?.reason)
      options.signal?.addEventListener('abort', onAbort, { once: true })
      const done = () => {
        clearTimeout(timer)
        options.signal?.removeEventListener('abort', onAbort)
      }

      let res: Response
      let bytes: Buffer
      try {
        res = await this.#fetch(url, { method: spec.method, headers, body, signal: controller.signal })
        if (stream && res.ok) {
          // The timeout covers opening the stream; the stream itself may last as long as it needs.
          clearTimeout(timer)
          const info = this.#info(res, spec)
          this.lastResponse = info
          return { data: new EventStream(res.body, info, controller), response: info }
        }
        bytes = Buffer.from(await res.arrayBuffer())
      } catch (err) {
        done()
        if (options.signal?.aborted && !timedOut) throw options.signal.reason ?? err
        const error = timedOut ? new TimeoutError(`No answer to ${what} within ${timeout} ms`, { cause: err }) : new ConnectionError(`${what} failed: ${describe(err)}`, { cause: err })
        if (retry < maxRetries) {
          await sleep(retryDelayMs(retry), options.signal)
          continue
        }
        throw error
      }
      done()

      const info = this.#info(res, spec)
      this.lastResponse = info
      if (!res.ok) {
        const error = APIError.from({ status: res.status, headers: res.headers, body: bytes.toString('utf8') })
        if (retry < maxRetries && isRetryableStatus(res.status)) {
          await sleep(retryDelayMs(retry, res.headers.get('retry-after')), options.signal)
          continue
        }
        throw error
      }
      return { data: this.#decode(res, bytes, spec), response: info }
    }
  }

  #info(res: Response, spec: OperationSpec): ResponseInfo {
    return { status: res.status, headers: res.headers, requestId: res.headers.get('x-request-id'), url: res.url, operationId: spec.operationId }
  }

  #decode(res: Response, bytes: Buffer, spec: OperationSpec): unknown {
    if (res.status === 204) return null
    const type = res.headers.get('content-type')
    if (isJson(type)) return bytes.length ? JSON.parse(bytes.toString('utf8')) : null
    if (spec.fileMediaType) return bytes
    if (bytes.length === 0) return null
    if (type && /^text\//i.test(type)) return bytes.toString('utf8')
    return bytes
  }
}

/** The base of the generated namespace classes. */
export class APIResource {
  /** @internal */
  protected readonly _client: BaseClient

  constructor(client: BaseClient) {
    this._client = client
  }
}

/**
 * A namespace that is also an operation (`svc.agents.dryRun(id, …)` and `svc.agents.dryRun.stream(…)`):
 * the function, carrying the namespace's children and methods.
 */
export function callableNamespace<F extends (...args: never[]) => unknown, N extends object>(fn: F, ns: N): F & N {
  const target = fn as unknown as Record<PropertyKey, unknown>
  for (const key of Reflect.ownKeys(ns)) Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(ns, key) as PropertyDescriptor)
  for (let proto = Object.getPrototypeOf(ns); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(target, key)) continue
      const d = Object.getOwnPropertyDescriptor(proto, key) as PropertyDescriptor
      if (typeof d.value === 'function') Object.defineProperty(target, key, { value: d.value.bind(ns), configurable: true, writable: true })
    }
  }
  return fn as F & N
}
