import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyInstance, type FastifyRequest } from 'fastify'
import type { Kernel } from '../kernel.js'
import type { Services } from '../services.js'
import type { Mode, Principal } from '../tenant.js'
import { traceRequests } from '../tracing/http-tracing.js'
import { createAuthentication } from './authentication.js'
import { registerBackPressure } from './back-pressure.js'
import { BASES } from './bases.js'
import { capConnectionsPerAddress, checkingInterval, fastifyTrustProxy, trackSilentConnections, trustedPeer } from './connection-limits.js'
import type { AnyRoute } from './define-route.js'
import { registerDocs } from './docs.js'
import { IdempotencyStore } from './idempotency.js'
import { registerJsonBodyParser } from './json-body.js'
import { registerMultipart } from './multipart.js'
import { openApiDocument } from './openapi.js'
import { Problem, setProblemDocsBase } from './problem.js'
import { registerProbes } from './probes.js'
import { registerRateLimits } from './rate-limits.js'
import type { SharedCounters } from './rate-limit-store.js'
import { clientError, requestIdOf } from './request-ids.js'
import { registerResponseHeaders, registerResponseHooks } from './response-hooks.js'
import { routeOptions, type RouteContext } from './route-options.js'
import { lazySerializers, setLazyValidators } from './schema-compilers.js'
import { EventStreams } from './sse.js'
import { registerSwagger } from './swagger-plugin.js'
import { UnroutedRequests } from './unrouted-requests.js'

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal
  }
  interface FastifyContextConfig {
    operationId?: string
    scope?: string
    module?: string
    mode?: Mode
    public?: boolean
  }
}

export interface HttpOptions {
  /** The rate limiter's Redis link (REDIS_URL), with its in-process fallback; null without Redis. */
  counters: SharedCounters | null
  onResponse?: (request: FastifyRequest, statusCode: number, seconds: number) => void
  /** Serves GET /metrics (Prometheus text), behind METRICS_TOKEN when set. */
  metrics?: { render(): Promise<string> }
}

/**
 * The HTTP server: its set-up steps in the order their hooks must run (tracing, then headers, then the
 * rate limit, then each route's authentication, body and idempotency steps). Each step lives in its file.
 */
export async function createHttpServer(kernel: Kernel, services: Services, routes: AnyRoute[], opts: HttpOptions): Promise<FastifyInstance> {
  const { config, log } = kernel
  const auth = createAuthentication(kernel, services)
  const unrouted = new UnroutedRequests(config.publicUrl)
  setProblemDocsBase(config.docsBaseUrl)
  const app = Fastify({
    loggerInstance: log as unknown as FastifyInstance['log'],
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: requestIdOf,
    bodyLimit: config.bodyLimitBytes,
    // request.ip (rate-limit buckets, audit, logs) from X-Forwarded-For only behind a configured proxy.
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Slow or stalled clients (a body that never finishes) are cut off: 408, or the connection closed.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: { headersTimeout: config.http.headersTimeoutMs, requestTimeout: config.http.requestTimeoutMs, connectionsCheckingInterval: checkingInterval(config.http) },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: true },
    // Errors the router raises before any route runs (bad percent-encoding, an over-long path parameter).
    frameworkErrors: (err, request, reply) => void unrouted.routerError(err, request, reply),
    // Errors of the HTTP parser itself (no request object exists): still a problem with a request id.
    clientErrorHandler: (err, socket) => (unrouted.unknownMethod(err, socket) ? undefined : clientError(err, socket)),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>()
  capConnectionsPerAddress(app.server, config.http.maxConnectionsPerIp, trustedPeer(config.trustProxy))
  setLazyValidators(app)
  app.addSchema(Problem)
  // A JSON API: a text/plain body is an unsupported media type (415), not a string that fails validation.
  app.removeContentTypeParser('text/plain')

  const idempotency = new IdempotencyStore(kernel.db, kernel.clock, config.idempotencyRetentionHours, config.idempotencyLockSeconds, kernel.secrets)
  app.addHook('onClose', async () => {
    await kernel.requests.flush()
    await kernel.apiLogs.close()
  })
  // Event streams (sse.ts) end before the server waits for in-flight requests, which they would be forever.
  const streams = new EventStreams(config, log)
  const closeSilent = trackSilentConnections(app.server)
  app.addHook('preClose', async () => {
    await streams.close()
    closeSilent()
  })

  // OpenTelemetry server spans (kernel/tracing), first so every later hook runs inside the span; none when off.
  traceRequests(app)
  registerResponseHeaders(app)
  // Before the rate limit and authentication: a refusal under overload must cost next to nothing.
  registerBackPressure(app, { maxInFlight: config.http.maxInFlight, maxDatabaseWaiting: config.http.maxDatabaseWaiting, retryAfterSeconds: 1 }, () => kernel.database.poolStats().waiting)
  unrouted.limit = await registerRateLimits(app, config, opts.counters, auth.rateLimitKey)
  registerResponseHooks(app, kernel, { idempotency, lookedUp: auth.lookedUp, onResponse: opts.onResponse })
  await registerSwagger(app, config, auth.tokenSchemes)

  // ---- the operations, on both base URLs ----
  const getOpenApi = openApiDocument(() => ({
    base: app.swagger() as unknown as Record<string, unknown>,
    routes,
    events: kernel.events.catalog(),
    delivery: kernel.modules.find((m) => m.eventDelivery)?.eventDelivery,
  }))
  const ctx: RouteContext = { config, services, auth, idempotency, streams }
  for (const { prefix, mode } of BASES) {
    await app.register(
      async (scope) => {
        registerJsonBodyParser(scope)
        for (const r of routes.filter((x) => !x.rawBody && !x.multipart)) scope.route(routeOptions(ctx, r, mode))
        // Upload routes: the only scope with a multipart/form-data parser.
        await scope.register(async (form) => {
          await registerMultipart(form)
          for (const r of routes.filter((x) => x.multipart)) form.route(routeOptions(ctx, r, mode))
        })
        // Raw-body routes (Playground) accept any content type and keep the bytes.
        await scope.register(async (raw) => {
          raw.removeAllContentTypeParsers()
          raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
          for (const r of routes.filter((x) => x.rawBody)) raw.route(routeOptions(ctx, r, mode))
        })
        registerDocs(scope, getOpenApi, routes, mode)
      },
      { prefix },
    )
    unrouted.addRoutes(prefix, routes)
  }

  registerProbes(app, kernel, opts.metrics)

  // ---- third parties' callbacks (carriers): not API operations, outside the base URLs, their own auth ----
  for (const m of kernel.modules) {
    if (m.callbacks) await app.register(async (scope) => m.callbacks!(scope, kernel, services))
  }

  unrouted.register(app)
  return app
}
