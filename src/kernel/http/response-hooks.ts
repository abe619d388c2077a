import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'
import { API_VERSION } from '../events/events.js'
import type { Kernel } from '../kernel.js'
import type { Principal } from '../tenant.js'
import type { IdempotencyStore } from './idempotency.js'
import { sendProblem, toAppError } from './problem.js'
import { ietfRateLimitHeaders } from './rate-limits.js'

/** What a log line names a request by: its route template (`/v2/leads/:id`), or none when no route matched. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? '(no route)'

/** Every answer carries its request id and the API version, whatever later fails. */
export function registerResponseHeaders(app: FastifyInstance): void {
  // Hooks take a callback where they need not wait: each async hook costs every request a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-ID', request.id)
    reply.header('Svc-Api-Version', API_VERSION)
    done()
  })
}

export interface ResponseHooks {
  idempotency: IdempotencyStore
  /** The principal the rate limiter looked up, for requests refused before authentication admitted them. */
  lookedUp: (request: FastifyRequest) => Principal | null | undefined
  onResponse?: (request: FastifyRequest, statusCode: number, seconds: number) => void
}

/**
 * After the handler: rate-limit headers, the idempotency record, the request counter and log, and the
 * one error handler that turns anything thrown into a problem (5xx detail logged, not sent).
 */
export function registerResponseHooks(app: FastifyInstance, kernel: Kernel, hooks: ResponseHooks): void {
  const { idempotency, lookedUp } = hooks
  const counter = kernel.requests
  // The request log (API_LOGS=off: no hook does anything for it).
  const apiLogs = kernel.apiLogs.enabled ? kernel.apiLogs : null

  app.addHook('onSend', (request, reply, payload, done) => {
    ietfRateLimitHeaders(request, reply)
    if (apiLogs && reply.statusCode >= 400) apiLogs.noteProblem(request, reply, payload)
    if (!request.idempotency) return done(null, payload)
    // An event stream's headers go out at its first event: it is stored when its work settles (finishStream).
    if (String(reply.getHeader('content-type')).startsWith('text/event-stream')) return done(null, payload)
    idempotency.finish(request, reply, payload).then(() => done(null, payload), done)
  })

  const debug = kernel.log.isLevelEnabled('debug')
  app.addHook('onResponse', (request, reply, done) => {
    const cfg = request.routeOptions.config
    if (request.principal && cfg.operationId && cfg.module) {
      counter.record(request.principal, cfg.module, cfg.operationId, reply.statusCode, kernel.clock.now())
    }
    if (apiLogs) {
      // Any request whose credential resolved to a tenant, admitted or not (401 wrong_environment, 403, 429
      // carry the rate limiter's lookup); an unknown or missing key has no workspace to show it to.
      const principal = request.principal ?? lookedUp(request)
      if (principal) apiLogs.record(request, reply, principal)
    }
    hooks.onResponse?.(request, reply.statusCode, reply.elapsedTime / 1000)
    // The route's template, never the URL: paths carry capability tokens (DSAR links, Playground tokens) and
    // query strings carry personal data and credentials (`?email=`, `access_token`), at every level.
    if (reply.statusCode >= 500) request.log.error({ method: request.method, route: routeOf(request), status: reply.statusCode }, 'request failed')
    else if (debug) request.log.debug({ method: request.method, route: routeOf(request), status: reply.statusCode, ms: reply.elapsedTime }, 'request completed')
    done()
  })

  app.setErrorHandler(async (err, request, reply) => {
    const appErr = toAppError(err)
    if (appErr.status >= 500 && !(err instanceof AppError)) request.log.error({ err }, 'unhandled error')
    return sendProblem(request, reply, appErr)
  })
}
