import { context, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { activeTracer, contextFrom } from './tracing.js'

/**
 * A server span per request, added by server.ts only when tracing is on. An incoming W3C `traceparent`
 * continues the caller's trace. The span is named by the route's template (`POST /v2/inbox/conversations`),
 * never by the URL: paths and queries carry capability tokens and personal data.
 *
 * The span's context is entered at the first hook and again after the body is read: Node runs a body's
 * `data` events in the connection's async context, not the request's, so what runs after parsing (the
 * handler, its queries, the jobs it enqueues) would otherwise lose its parent.
 */
export function traceRequests(app: FastifyInstance): void {
  const tracer = activeTracer()
  if (!tracer) return
  const contexts = new WeakMap<FastifyRequest, Context>()
  app.addHook('onRequest', (request, _reply, done) => {
    const parent = contextFrom(request.headers)
    const route = request.routeOptions.url
    const span = tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, ...(route && { 'http.route': route }), 'svc.request_id': String(request.id) },
      },
      parent,
    )
    const ctx = trace.setSpan(parent, span)
    contexts.set(request, ctx)
    context.with(ctx, done)
  })
  app.addHook('preValidation', (request, _reply, done) => {
    const ctx = contexts.get(request)
    if (ctx) context.with(ctx, done)
    else done()
  })
  const end = (request: FastifyRequest, status: number | null) => {
    const ctx = contexts.get(request)
    const span = ctx && trace.getSpan(ctx)
    if (!span) return
    contexts.delete(request)
    if (status === null) span.setAttribute('error.type', 'client_aborted')
    else span.setAttribute('http.response.status_code', status)
    if (status === null || status >= 500) span.setStatus({ code: SpanStatusCode.ERROR })
    span.end()
  }
  app.addHook('onResponse', (request, reply, done) => {
    end(request, reply.statusCode)
    done()
  })
  // A client that goes away before the answer: no onResponse, the span still ends.
  app.addHook('onRequestAbort', (request, done) => {
    end(request, null)
    done()
  })
}
