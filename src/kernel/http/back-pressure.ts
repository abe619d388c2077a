import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An event stream (sse.ts): held open for as long as the client listens, so not a request in flight. */
    eventStream?: boolean
  }
}

export interface BackPressureSettings {
  /** Requests this process handles at once; one more is answered 503 at once (0: no bound). */
  maxInFlight: number
  /** Queries waiting for a pooled database connection; above it new requests get 503 (0: no bound). */
  maxDatabaseWaiting: number
  /** Seconds a refused client is told to wait (Retry-After). */
  retryAfterSeconds: number
}

/** Paths that must answer while the process is saturated: the orchestrator's probes and the metrics scrape. */
const EXEMPT = new Set(['/livez', '/readyz', '/metrics'])

/**
 * Back-pressure (issue 36): under a burst beyond what the process can serve, queues grow without bound —
 * requests wait on the event loop, queries on the pool — and every client's latency grows with them until
 * clients time out and retry into the same queue. Past a bound the process answers 503 with Retry-After at
 * once (a few microseconds, before authentication and the rate limit), so the requests it did accept keep
 * their latency and a load balancer or client can go elsewhere or come back. Counted from the request's
 * arrival until its response closes (finished or cut off). Event streams and the probes are not counted.
 */
export function registerBackPressure(app: FastifyInstance, s: BackPressureSettings, poolWaiting: () => number): { inFlight(): number } {
  let inFlight = 0
  if (s.maxInFlight <= 0 && s.maxDatabaseWaiting <= 0) return { inFlight: () => inFlight }
  const retryAfter = String(s.retryAfterSeconds)
  const release = () => {
    inFlight--
  }
  const busy = (detail: string) => new AppError('service_unavailable', detail, { headers: { 'Retry-After': retryAfter } })
  app.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    if (request.routeOptions.config.eventStream || EXEMPT.has(request.routeOptions.url ?? '')) return done()
    if (s.maxInFlight > 0 && inFlight >= s.maxInFlight) {
      return done(busy(`This server is handling ${inFlight} requests, its limit (HTTP_MAX_IN_FLIGHT); retry after ${retryAfter} s.`))
    }
    if (s.maxDatabaseWaiting > 0 && poolWaiting() > s.maxDatabaseWaiting) {
      return done(busy(`More than ${s.maxDatabaseWaiting} queries are waiting for a database connection (DATABASE_MAX_WAITING); retry after ${retryAfter} s.`))
    }
    inFlight++
    reply.raw.once('close', release)
    done()
  })
  return { inFlight: () => inFlight }
}
