import { subscribe } from 'node:diagnostics_channel'
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context, type Span, type Tracer } from '@opentelemetry/api'
import type { LogEvent } from 'kysely'
import type { Logger } from 'pino'

/**
 * OpenTelemetry traces (docs/operations.md "Tracing"). The service's code uses only `@opentelemetry/api`;
 * the SDK and the OTLP exporter (tracing-sdk.ts) are imported only when an endpoint is configured. Off, every
 * helper here returns at its first line (a null check) and no hook, query logger or channel subscriber is
 * installed: tracing that is not configured costs nothing.
 *
 * What a span may carry: route templates, status codes, request and job ids, statement kinds and table
 * names, outbound hosts. Never parameter values, URLs' paths or queries, bodies or error messages: they hold
 * credentials (capability links, webhook tokens) and personal data.
 */
export interface TracingSettings {
  protocol: 'http/json' | 'http/protobuf'
  /** Where spans are posted (OTLP/HTTP, JSON or protobuf bodies). */
  endpoint: string
  headers: Record<string, string>
  timeoutMs: number
  serviceName: string
  sampler: 'always_on' | 'always_off' | 'traceidratio' | 'parentbased_always_on' | 'parentbased_always_off' | 'parentbased_traceidratio'
  samplerRatio: number
}

/** What tracing-sdk.ts hands back: the process's tracer provider, to flush and shut down. */
export interface TracingSdk {
  flush(): Promise<void>
  shutdown(): Promise<void>
}

let tracer: Tracer | null = null
let sdk: TracingSdk | null = null
let starting: Promise<void> | null = null

/** True once tracing is started in this process (it is process-wide: the API's global provider). */
export const tracingOn = (): boolean => tracer !== null

/**
 * Starts tracing once per process when configured (later calls, e.g. a second app in a test process, reuse
 * it). Must run before the database is opened: the query logger is chosen then.
 */
export function startTracing(settings: TracingSettings | null, log: Logger): Promise<void> {
  if (!settings) return Promise.resolve()
  starting ??= (async () => {
    const { startSdk } = await import('./tracing-sdk.js')
    sdk = startSdk(settings, log)
    tracer = trace.getTracer('svc')
    traceOutboundRequests(tracer)
    log.info({ endpoint: new URL(settings.endpoint).origin, sampler: settings.sampler }, 'OpenTelemetry tracing on')
  })()
  return starting
}

/** Exports every ended span now (tests; a clean shutdown). */
export async function flushTracing(): Promise<void> {
  await sdk?.flush()
}

/** The W3C `traceparent` of the active span, to store with work done later (a job); null when off or none. */
export function currentTraceparent(): string | null {
  if (!tracer) return null
  const carrier: Record<string, string> = {}
  propagation.inject(context.active(), carrier)
  return carrier.traceparent ?? null
}

/** The context whose parent is a stored or received `traceparent` (the root context when absent or invalid). */
export const contextFrom = (headers: Record<string, unknown>): Context => propagation.extract(ROOT_CONTEXT, headers)

/** The tracer, for the HTTP hooks (http-tracing.ts); null when off. */
export const activeTracer = (): Tracer | null => tracer

/**
 * Runs a job's handler under a span whose parent is the span that enqueued it (its stored traceparent), so a
 * request and the work it caused are one trace. A handler's failure is marked on the span by the runner.
 */
export function withJobSpan<T>(job: { id: string; name: string; attempts: number; traceparent?: string | null }, run: () => Promise<T>): Promise<T> {
  if (!tracer) return run()
  const parent = job.traceparent ? contextFrom({ traceparent: job.traceparent }) : ROOT_CONTEXT
  const span = tracer.startSpan(`job ${job.name}`, { kind: SpanKind.CONSUMER, attributes: { 'svc.job.name': job.name, 'svc.job.id': job.id, 'svc.job.attempt': job.attempts } }, parent)
  return context.with(trace.setSpan(parent, span), run).finally(() => span.end())
}

/** Marks the active span (a job's) failed; the error's class only, never its message (it may hold data). */
export function markActiveSpanFailed(err: unknown): void {
  if (!tracer) return
  const span = trace.getActiveSpan()
  if (!span) return
  span.setStatus({ code: SpanStatusCode.ERROR })
  span.setAttribute('error.type', err instanceof Error ? err.constructor.name : typeof err)
}

// ---- database: one span per statement, from Kysely's query log (no plugin: plugins defeat prepared.ts) ----

const statementShape = new Map<string, { operation: string; table: string | null }>()
const SQL_SHAPE = /^\s*(?:with\b[\s\S]*?\)\s*)?(select|insert|update|delete|create|alter|drop|pragma|begin|commit|rollback|savepoint|release|vacuum)\b/i
// A table name, possibly schema-qualified and quoted; not a table function (`from json_to_recordset(…)`).
const TABLE = String.raw`\s+(?:"?\w+"?\.)?"?(\w+)\b"?(?!\s*\()`
const TABLE_OF: Record<string, RegExp> = {
  insert: new RegExp(String.raw`\binto` + TABLE, 'i'),
  update: new RegExp(String.raw`\bupdate` + TABLE, 'i'),
  select: new RegExp(String.raw`\bfrom` + TABLE, 'i'),
  delete: new RegExp(String.raw`\bfrom` + TABLE, 'i'),
}

/** The statement's kind and first table, read from its SQL text (placeholders only: values are never read). */
export function statementSummary(sql: string): { operation: string; table: string | null } {
  let shape = statementShape.get(sql)
  if (!shape) {
    const operation = (SQL_SHAPE.exec(sql)?.[1] ?? 'query').toLowerCase()
    const table = TABLE_OF[operation]?.exec(sql)?.[1] ?? null
    shape = { operation: operation.toUpperCase(), table }
    // SQL texts are bounded by the code's query shapes, except those that embed a list's length: cap it.
    if (statementShape.size >= 2000) statementShape.clear()
    statementShape.set(sql, shape)
  }
  return shape
}

/** Kysely's `log` option when tracing is on: a client span per statement, timed by Kysely. Undefined when off. */
export function databaseQueryLogger(engine: 'sqlite' | 'postgres'): ((event: LogEvent) => void) | undefined {
  if (!tracer) return undefined
  const t = tracer
  const system = engine === 'postgres' ? 'postgresql' : 'sqlite'
  return (event) => {
    // Only inside a trace: a poll of the job runner outside any request is not worth a trace of its own.
    const parent = trace.getSpan(context.active())
    if (!parent) return
    const { operation, table } = statementSummary(event.query.sql)
    const end = Date.now()
    const span = t.startSpan(table ? `${operation} ${table}` : operation, {
      kind: SpanKind.CLIENT,
      startTime: end - event.queryDurationMillis,
      attributes: { 'db.system.name': system, 'db.operation.name': operation, ...(table && { 'db.collection.name': table }) },
    })
    if (event.level === 'error') {
      span.setStatus({ code: SpanStatusCode.ERROR })
      const code = (event.error as { code?: unknown } | null)?.code
      if (typeof code === 'string') span.setAttribute('error.type', code)
    }
    span.end(end)
  }
}

// ---- outbound HTTP: every undici request (webhooks, tools, model servers, CRM adapters) ----

interface UndiciRequest {
  method: string
  origin: string | URL
  addHeader(name: string, value: string): unknown
}

/**
 * Client spans for outbound requests, from undici's diagnostics channels (the library every outbound call
 * uses, and Node's fetch): one place, whatever module makes the call. The `traceparent` header is added so a
 * receiver can continue the trace. Only the method and the origin are recorded: paths carry tokens.
 */
function traceOutboundRequests(t: Tracer): void {
  const spans = new WeakMap<object, Span>()
  subscribe('undici:request:create', (message) => {
    const { request } = message as { request: UndiciRequest }
    const parent = context.active()
    if (!trace.getSpan(parent)) return
    let origin: URL | null = null
    try {
      origin = new URL(String(request.origin))
    } catch {
      origin = null
    }
    const span = t.startSpan(
      request.method,
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'http.request.method': request.method,
          ...(origin && { 'server.address': origin.hostname, 'server.port': Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)), 'url.scheme': origin.protocol.replace(':', '') }),
        },
      },
      parent,
    )
    spans.set(request, span)
    const carrier: Record<string, string> = {}
    propagation.inject(trace.setSpan(parent, span), carrier)
    for (const [k, v] of Object.entries(carrier)) request.addHeader(k, v)
  })
  subscribe('undici:request:headers', (message) => {
    const { request, response } = message as { request: object; response: { statusCode: number } }
    const span = spans.get(request)
    if (!span) return
    span.setAttribute('http.response.status_code', response.statusCode)
    if (response.statusCode >= 400) span.setStatus({ code: SpanStatusCode.ERROR })
  })
  const end = (message: unknown) => {
    const { request, error } = message as { request: object; error?: unknown }
    const span = spans.get(request)
    if (!span) return
    spans.delete(request)
    if (error) {
      span.setStatus({ code: SpanStatusCode.ERROR })
      span.setAttribute('error.type', (error as { code?: string }).code ?? (error instanceof Error ? error.name : 'error'))
    }
    span.end()
  }
  subscribe('undici:request:trailers', end)
  subscribe('undici:request:error', end)
}
