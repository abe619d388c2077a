import type { FastifyRequest, FastifySchema, RouteOptions } from 'fastify'
import type { Config } from '../../config.js'
import { bindAudit, type AuditScope } from '../audit/audit.js'
import { minRoleOf } from '../auth/roles.js'
import { AppError } from '../errors.js'
import type { Services } from '../services.js'
import type { Mode, Principal } from '../tenant.js'
import type { Authentication } from './authentication.js'
import type { AnyRoute } from './define-route.js'
import { bindClaim, type IdempotencyStore } from './idempotency.js'
import { readMultipartBody } from './multipart.js'
import { problemStatuses } from './problem-statuses.js'
import { contentEncodingProblem } from './request-body.js'
import { WithStatus } from './response-status.js'
import type { EventStreams } from './sse.js'

/** `{id}` (spec style) → `:id` (Fastify style). */
export const toFastifyPath = (url: string): string => url.replace(/\{([a-z_]+)\}/g, ':$1')

export interface RouteContext {
  config: Config
  services: Services
  auth: Authentication
  idempotency: IdempotencyStore
  streams: EventStreams
}

/** One operation as a Fastify route on one base URL: its schema for the document, then the request's steps in order. */
export function routeOptions(ctx: RouteContext, r: AnyRoute, mode: Mode): RouteOptions {
  const { config, services, auth, idempotency, streams } = ctx
  const tokenSchemes = auth.tokenSchemes
  const hasBody = r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT'
  const isWrite = hasBody || r.method === 'DELETE'
  const successCodes = Object.keys(r.schema.response).map(Number)
  const status = r.status ?? successCodes[0] ?? 200
  // Success schemas serialise the handler's result; problems are sent as strings (sendProblem), so their
  // entries only document. A status with a success schema keeps it (getApiHealth's 503 report).
  const response: Record<string, unknown> = { ...r.schema.response }
  for (const code of problemStatuses(r).keys()) {
    response[code] ??= { description: 'Problem details (RFC 9457)', content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } } }
  }
  // A JSON body of an upload route may carry a document as large as the file limit.
  const bodyLimit = r.multipart ? Math.max(config.bodyLimitBytes, r.multipart.maxFileBytes(config) + 64 * 1024) : undefined
  const maxFileBytes = r.multipart ? r.multipart.maxFileBytes(config) : 0
  // Per media type: a form validates against the form schema, JSON against the body schema.
  const body = r.multipart ? { content: { 'application/json': { schema: r.schema.body }, 'multipart/form-data': { schema: r.multipart.schema } } } : r.schema.body
  return {
    method: r.method,
    url: toFastifyPath(r.url) || '/',
    ...(bodyLimit ? { bodyLimit } : {}),
    config: {
      operationId: r.operationId,
      eventStream: !!r.sse,
      scope: r.scope,
      module: r.module,
      mode,
      public: !!r.public,
      ...(r.rateLimit
        ? { rateLimit: { max: typeof r.rateLimit.max === 'function' ? r.rateLimit.max(config) : r.rateLimit.max, timeWindow: r.rateLimit.timeWindowMs, groupId: r.rateLimit.groupId } }
        : {}),
    },
    schema: {
      operationId: r.operationId,
      summary: r.summary,
      description: `${r.description ?? r.summary}\n\nRequired scope: \`${r.scope}\`.${r.public ? '' : ` Minimum member role: \`${minRoleOf(r)}\`.`} Reference: ${config.publicUrl}/v2/api-docs/${r.module}/${r.operationId}`,
      tags: [r.module],
      ...(r.public ? { security: [] } : { security: ((r.anyScope ?? [r.scope]) as string[]).flatMap((sc) => [{ bearerAuth: [sc] }, ...tokenSchemes.map((t) => ({ [t.name]: [sc] }))]) }),
      'x-required-scope': r.scope,
      ...(r.public ? {} : { 'x-min-role': minRoleOf(r) }),
      ...(r.schema.params ? { params: r.schema.params } : {}),
      ...(r.schema.querystring ? { querystring: r.schema.querystring } : {}),
      ...(body && !r.rawBody ? { body } : {}),
      ...(r.schema.headers ? { headers: r.schema.headers } : {}),
      response,
    } as FastifySchema,
    // Who is asking first (401/403 before anything about the body), then how the body is sent. Raw-body
    // captures (Playground) keep what they receive, encoded or not.
    preParsing: (request, _reply, payload, done) => {
      const read = () => {
        const encoded = r.rawBody ? null : contentEncodingProblem(request)
        if (encoded) done(encoded)
        else done(null, payload)
      }
      const authenticated = r.public ? undefined : auth.authenticate(request, r, mode)
      if (authenticated) authenticated.then(read, done)
      else read()
    },
    preValidation: (request, _reply, done) => {
      const checkNul = () => {
        // PostgreSQL TEXT cannot hold U+0000; refuse it up front on both engines (same answer everywhere).
        const nul = findNul(request.params, '/path') ?? findNul(request.query, '/query') ?? (r.rawBody ? null : findNul(request.body, '/body'))
        if (nul) {
          return done(
            new AppError('validation_failed', `${nul} contains a NUL character (U+0000), which is not allowed.`, {
              errors: [{ pointer: nul, detail: 'must not contain U+0000' }],
            }),
          )
        }
        done()
      }
      if (r.multipart && request.isMultipart()) {
        readMultipartBody(request, { maxFileBytes, maxFiles: r.multipart.maxFiles ?? 1 }).then(checkNul, done)
        return
      }
      // Validation goes by media type on upload routes: without one nothing would check the body.
      if (r.multipart && request.body === undefined) {
        return done(new AppError('validation_failed', 'Send a body: application/json or multipart/form-data.', { errors: [{ pointer: '/body', detail: 'is required' }] }))
      }
      // Operations whose body fields are all optional may be called without a body.
      if (hasBody && request.body === undefined && r.schema.body && !r.rawBody) request.body = {}
      checkNul()
    },
    // Idempotency-Key only means something on writes; reads skip the hook altogether. An event stream's
    // key replays the whole stream once it ended well (sse.ts records it); a resume (Last-Event-ID) is not
    // a repeat but the same request carried on, so it skips the key.
    preHandler: isWrite
      ? (request, reply, done) => {
          if (request.headers['idempotency-key'] === undefined) return done()
          if (r.sse && request.headers['last-event-id'] !== undefined) return done()
          const scopeId = request.principal?.keyId ?? `public:${mode}`
          idempotency.begin(request, reply, scopeId, r.idempotency === 'in-transaction').then(() => done(), done)
        }
      : undefined,
    handler: async (request, reply) => {
      // Each request gets its own principal object, the owner its services hand to kernel.transaction: bound to
      // the request's audit scope and to its Idempotency-Key claim (a public operation's owner is the request).
      const principal = request.principal ? { ...request.principal } : null
      const owner = principal ?? request
      bindAudit(owner, requestAuditScope(request, r.operationId, principal))
      if (r.sse) {
        const base = { params: request.params, query: request.query, body: request.body, principal, services, request, reply }
        const streamClaim = request.idempotency
        // Recorded for the key once the work settles (the response may have ended long before, or been resumed).
        const record = streamClaim
          ? (text: string | null) => void idempotency.finishStream(streamClaim, text).catch((err: unknown) => request.log.error({ err }, 'idempotency: storing a stream failed'))
          : undefined
        return streams.serve(
          request,
          reply,
          r.sse,
          (stream) => {
            const ctx = { ...base, stream, reauthenticate: () => auth.reauthenticate(request, r, mode) }
            return r.handler(ctx)
          },
          record,
        )
      }
      const claim = request.idempotency
      if (claim) {
        // The claim object itself: what its transaction stores on it is what onSend then reads.
        const active = Object.assign(claim, { status, serialize: (v: unknown, s: number) => (reply.getSerializationFunction(String(s)) ?? JSON.stringify)(v as Record<string, unknown>) })
        bindClaim(owner, active)
      }
      const result = await r.handler({ params: request.params, query: request.query, body: request.body, principal, services, request, reply })
      if (reply.sent) return reply
      if (result instanceof WithStatus) {
        reply.code(result.status)
        return result.body
      }
      reply.code(reply.statusCode !== 200 ? reply.statusCode : status)
      return result
    },
  }
}

/** JSON pointer of the first string (or key) holding U+0000, or null. */
function findNul(value: unknown, pointer: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : null
  if (value === null || typeof value !== 'object' || depth > 32) return null
  for (const [k, v] of Object.entries(value)) {
    const here = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`
    if (k.includes('\u0000')) return here
    const found = findNul(v, here, depth + 1)
    if (found) return found
  }
  return null
}

/**
 * Who changes what in this request, for the audit log: the key, the operation (`action`), the client, the body's
 * field names. Also for routes mounted outside the operations (v1's shims), which bind it to their own principal.
 */
export function requestAuditScope(request: FastifyRequest, action: string, principal: Principal | null): AuditScope {
  const body = request.body
  const fields = body && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) ? Object.keys(body as object) : []
  const id = (request.params as { id?: unknown } | undefined)?.id
  return {
    actor: principal ? (principal.actor ?? { type: 'api_key', id: principal.keyId }) : { type: 'anonymous', id: null },
    action,
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
    requestId: String(request.id),
    fields,
    targetId: typeof id === 'string' ? id : null,
  }
}
