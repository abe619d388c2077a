import { auditScope, type AuditScope } from '../audit/audit.js'
import { timingSafeEqual } from 'node:crypto'
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler'
import rateLimit from '@fastify/rate-limit'
import { primaryChannel } from '../cluster/cluster-channel.js'
import { ClusterRateLimitStore } from '../cluster/cluster-rate-limit.store.js'
import swagger from '@fastify/swagger'
import { Ajv } from 'ajv'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifySchema, type FastifySchemaValidationError, type RouteOptions } from 'fastify'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { capConnectionsPerAddress, checkingInterval, fastifyTrustProxy, trackSilentConnections, trustedPeer } from './connection-limits.js'
import type { SharedCounters } from './rate-limit-store.js'
import { findPrincipal, hashKey, keyMode } from '../auth/api-keys.js'
import { resolverFor } from '../auth/bearer-tokens.js'
import { minRoleOf, roleAtLeast } from '../auth/roles.js'
import { hasScope } from '../auth/scopes.js'
import { AppError, errorSpec } from '../errors.js'
import { API_VERSION } from '../events/events.js'
import { randomToken } from '../ids.js'
import type { Kernel } from '../kernel.js'
import type { Services } from '../services.js'
import type { Mode, Principal } from '../tenant.js'
import type { AnyRoute } from './define-route.js'
import { registerDocs } from './docs.js'
import { IdempotencyStore, bindClaim } from './idempotency.js'
import { registerJsonBodyParser } from './json-body.js'
import { contentEncodingProblem } from './request-body.js'
import { WithStatus } from './response-status.js'
import { readMultipartBody, registerMultipart } from './multipart.js'
import { openApiDocument, problemStatuses } from './openapi.js'
import { Problem, problemTypeUri, sendProblem, setProblemDocsBase, toAppError } from './problem.js'
import { EventStreams } from './sse.js'
import { traceRequests } from '../tracing/http-tracing.js'

// ajv-formats is CommonJS; under ESM its function may sit on .default.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

export const BASES: { prefix: string; mode: Mode }[] = [
  { prefix: '/v2', mode: 'live' },
  { prefix: '/sandbox/v2', mode: 'test' },
]
const BASE_OF: Record<Mode, string> = { live: '/v2', test: '/sandbox/v2' }

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

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

/** `{id}` (spec style) → `:id` (Fastify style). */
export const toFastifyPath = (url: string): string => url.replace(/\{([a-z_]+)\}/g, ':$1')

function bearer(request: FastifyRequest): string | null {
  const h = request.headers.authorization
  if (!h) return null
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h)
  return m ? m[1] : null
}

function compilers() {
  // Bodies are never coerced ("12" stays a string and fails an integer field); query and path are.
  const options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false } as const
  const body = new Ajv({ ...options, coerceTypes: false })
  const other = new Ajv({ ...options, coerceTypes: 'array' })
  addFormats(body)
  addFormats(other)
  // RFC 3339 allows a leap second (23:59:60), which no JavaScript Date holds: a time the handlers could not
  // read is refused here with the other format errors (422), not met as an invalid Date later (a 500).
  const rfc3339 = addFormats.get('date-time') as { validate: (s: string) => boolean; compare: (a: string, b: string) => number | undefined }
  const dateTime = { type: 'string' as const, validate: (s: string) => rfc3339.validate(s) && !Number.isNaN(Date.parse(s)), compare: rfc3339.compare }
  body.addFormat('date-time', dateTime)
  other.addFormat('date-time', dateTime)
  return { body, other }
}

export async function createHttpServer(kernel: Kernel, services: Services, routes: AnyRoute[], opts: HttpOptions): Promise<FastifyInstance> {
  const { config, log } = kernel
  /** The presented key's principal, looked up once per request (rate-limit bucket, then authentication). */
  const principals = new WeakMap<FastifyRequest, Principal | null>()
  // Bearer credentials the modules issue besides API keys (OAuth access tokens), told apart by shape.
  const resolvers = kernel.modules.flatMap((m) => (m.bearer ? [m.bearer(kernel, services)] : []))
  const tokenSchemes = resolvers.flatMap((r) => (r.openapi ? [r.openapi] : []))
  async function principalOf(request: FastifyRequest, key: string): Promise<Principal | null> {
    const known = principals.get(request)
    if (known !== undefined) return known
    const resolver = keyMode(key) ? null : resolverFor(resolvers, key)
    const principal = resolver ? await resolver.resolve(key) : await findPrincipal(kernel.db, key)
    principals.set(request, principal)
    return principal
  }
  setProblemDocsBase(config.docsBaseUrl)
  const app = Fastify({
    loggerInstance: log as unknown as FastifyInstance['log'],
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id']
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId()
    },
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
    // Errors the router raises before any route runs (bad percent-encoding, an over-long path parameter)
    // get the same contract as every other answer: problem+json, X-Request-ID, the rate limit.
    frameworkErrors: (err, request, reply) => void routerError(err, request, reply),
    // Errors of the HTTP parser itself (no request object exists): still a problem with a request id.
    clientErrorHandler: (err, socket) => (unknownMethod(err, socket) ? undefined : clientError(err, socket)),
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
  }).withTypeProvider<TypeBoxTypeProvider>()
  capConnectionsPerAddress(app.server, config.http.maxConnectionsPerIp, trustedPeer(config.trustProxy))
  const ajv = compilers()
  // Validators are compiled on a route's first request, not at start (see lazySerializers).
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const compiler = httpPart === 'body' ? ajv.body : ajv.other
    let compiled: ReturnType<typeof compiler.compile> | undefined
    const validate = (data: unknown): boolean => {
      compiled ??= compiler.compile(schema)
      const ok = compiled(data) as boolean
      validate.errors = compiled.errors as FastifySchemaValidationError[] | null | undefined
      return ok
    }
    validate.errors = undefined as FastifySchemaValidationError[] | null | undefined
    return validate
  })
  app.addSchema(Problem)
  // A JSON API: a text/plain body is an unsupported media type (415), not a string that fails validation.
  app.removeContentTypeParser('text/plain')

  const idempotency = new IdempotencyStore(kernel.db, kernel.clock, config.idempotencyRetentionHours, config.idempotencyLockSeconds, kernel.secrets)
  const counter = kernel.requests
  // The request log (API_LOGS=off: no hook does anything for it).
  const apiLogs = kernel.apiLogs.enabled ? kernel.apiLogs : null
  app.addHook('onClose', async () => {
    await counter.flush()
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
  // Hooks take a callback where they need not wait: each async hook costs every request a promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-ID', request.id)
    reply.header('Svc-Api-Version', API_VERSION)
    done()
  })

  // ---- rate limits: keyed by the presented key's hash, so even a 401 carries the headers ----
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    hook: 'onRequest',
    // Redis when configured, counted here (or in the cluster's primary) whenever Redis cannot answer at once
    // (rate-limit-store.ts); without Redis, the processes of one box count in the cluster's primary.
    ...(opts.counters ? { store: opts.counters.storeClass('svc-rl:') as never } : primaryChannel ? { store: ClusterRateLimitStore as never } : {}),
    // The stores fall back themselves: a failure left is a fault to see, never a limit silently off.
    skipOnError: false,
    // A known key has its own bucket; everything else (no key, a malformed, unknown or revoked key, a
    // public operation) shares its client address's bucket, so inventing keys cannot escape the limit.
    keyGenerator: async (request) => {
      const key = request.routeOptions.config?.public ? null : bearer(request)
      if (!key || (!keyMode(key) && !resolverFor(resolvers, key))) return `ip:${request.ip}`
      const principal = await principalOf(request, key)
      return principal ? `k:${principal.keyId}` : `ip:${request.ip}`
    },
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Rate limit of ${context.max} requests per ${context.after} exceeded; retry after the Retry-After seconds.`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  })

  const limiter = app.rateLimit()
  async function routerError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('X-Request-ID', request.id)
    reply.header('Svc-Api-Version', API_VERSION)
    try {
      await (limiter as unknown as (req: FastifyRequest, rep: FastifyReply) => Promise<void>).call(app, request, reply)
    } catch (limited) {
      ietfRateLimitHeaders(request, reply)
      sendProblem(request, reply, toAppError(limited))
      return
    }
    ietfRateLimitHeaders(request, reply)
    const path = (request.raw.url ?? '').split('?')[0]
    const problem =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('uri_too_long', 'A path parameter is longer than 100 characters; no resource has such an id.')
        : err.code === 'FST_ERR_BAD_URL'
          ? new AppError('bad_request', `The path ${JSON.stringify(path.slice(0, 200))} is not valid percent-encoded UTF-8.`)
          : toAppError(err)
    sendProblem(request, reply, problem)
  }

  app.addHook('onSend', (request, reply, payload, done) => {
    ietfRateLimitHeaders(request, reply)
    if (apiLogs && reply.statusCode >= 400) apiLogs.noteProblem(request, reply, payload)
    if (!request.idempotency) return done(null, payload)
    // An event stream's headers go out at its first event: it is stored when its work settles (finishStream).
    if (String(reply.getHeader('content-type')).startsWith('text/event-stream')) return done(null, payload)
    idempotency.finish(request, reply, payload).then(() => done(null, payload), done)
  })

  const debug = log.isLevelEnabled('debug')
  app.addHook('onResponse', (request, reply, done) => {
    const cfg = request.routeOptions.config
    if (request.principal && cfg.operationId && cfg.module) {
      counter.record(request.principal, cfg.module, cfg.operationId, reply.statusCode, kernel.clock.now())
    }
    if (apiLogs) {
      // Any request whose credential resolved to a tenant, admitted or not (401 wrong_environment, 403, 429
      // carry the rate limiter's lookup); an unknown or missing key has no workspace to show it to.
      const principal = request.principal ?? principals.get(request)
      if (principal) apiLogs.record(request, reply, principal)
    }
    opts.onResponse?.(request, reply.statusCode, reply.elapsedTime / 1000)
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

  // ---- OpenAPI from the same schemas (finalised for client generators in openapi.ts) ----
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Conversational Automation Service API',
        version: API_VERSION,
        description: 'Version 2 of the HTTP API. The sandbox base URL serves the same operations with svc_test_ keys.',
        // The service is not published under an open-source licence (package.json is private): a custom SPDX reference.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // From PUBLIC_URL (config.publicUrl; http://localhost:$PORT when unset).
      servers: [
        { url: `${config.publicUrl}/v2`, description: 'live (svc_live_ keys)' },
        { url: `${config.publicUrl}/sandbox/v2`, description: 'sandbox (svc_test_ keys)' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_live_… or svc_test_…' },
          // Other bearer tokens the modules issue (OAuth), described by their issuer.
          ...Object.fromEntries(tokenSchemes.map((t) => [t.name, t.scheme])),
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const cfg = (route.config ?? {}) as { operationId?: string; mode?: Mode }
      const hidden = !cfg.operationId || cfg.mode !== 'live'
      return { schema: { ...schema, hide: hidden || (schema as { hide?: boolean }).hide }, url: url.replace(/^\/v2(?=\/|$)/, '') || '/' }
    },
  })

  // ---- the operations, on both base URLs ----
  const getOpenApi = openApiDocument(() => ({ base: app.swagger() as unknown as Record<string, unknown>, routes, events: kernel.events.catalog(), delivery: kernel.modules.find((m) => m.eventDelivery)?.eventDelivery }))
  const routeIndex: { pattern: RegExp; method: string }[] = []
  for (const { prefix, mode } of BASES) {
    await app.register(
      async (scope) => {
        registerJsonBodyParser(scope)
        for (const r of routes.filter((x) => !x.rawBody && !x.multipart)) scope.route(routeOptions(r, mode))
        // Upload routes: the only scope with a multipart/form-data parser.
        await scope.register(async (form) => {
          await registerMultipart(form)
          for (const r of routes.filter((x) => x.multipart)) form.route(routeOptions(r, mode))
        })
        // Raw-body routes (Playground) accept any content type and keep the bytes.
        await scope.register(async (raw) => {
          raw.removeAllContentTypeParsers()
          raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))
          for (const r of routes.filter((x) => x.rawBody)) raw.route(routeOptions(r, mode))
        })
        registerDocs(scope, getOpenApi, routes, mode)
      },
      { prefix },
    )
    for (const r of routes) {
      const pattern = new RegExp('^' + (prefix + r.url).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z_]+\}/g, '[^/]+') + '/?$')
      routeIndex.push({ pattern, method: r.method })
    }
  }

  // ---- orchestrator probes, outside the base URLs and unauthenticated ----
  app.get('/livez', { config: {} }, async () => ({ status: 'ok' }))
  // Ready while the database answers. A dependency the API runs without (Redis) makes it `degraded`, still
  // 200: taking every node out of the load balancer because shared counters are away would be an outage.
  app.get('/readyz', async (_request, reply) => {
    try {
      await kernel.database.ping()
    } catch {
      return reply.code(503).send({ status: 'unavailable' })
    }
    const dependencies = await kernel.dependencies.check()
    const degraded = Object.values(dependencies).some((d) => d.status !== 'ok')
    return { status: degraded ? 'degraded' : 'ok', ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}) }
  })

  if (opts.metrics) {
    const metrics = opts.metrics
    app.get('/metrics', async (request, reply) => {
      if (config.metricsToken) {
        if (!sameSecret(bearer(request) ?? '', config.metricsToken)) throw new AppError('unauthorized', 'GET /metrics needs "Authorization: Bearer <METRICS_TOKEN>".')
      } else if (!config.metricsPublic && !isLoopback(request.socket.remoteAddress)) {
        // No token configured: only a scraper on this host may read (HOST defaults to 0.0.0.0).
        throw new AppError('forbidden', 'GET /metrics answers only loopback clients; set METRICS_TOKEN (or METRICS_PUBLIC=true) to scrape it remotely.')
      }
      return reply.type('text/plain; version=0.0.4; charset=utf-8').send(await metrics.render())
    })
  }

  // ---- third parties' callbacks (carriers): not API operations, outside the base URLs, their own auth ----
  for (const m of kernel.modules) {
    if (m.callbacks) await app.register(async (scope) => m.callbacks!(scope, kernel, services))
  }

  /** A known path with another method → 405 with Allow; any other path → 404. */
  function unroutedProblem(request: FastifyRequest): AppError {
    const path = request.url.split('?')[0]
    const allowed = [...new Set(routeIndex.filter((r) => r.pattern.test(path)).map((r) => r.method))]
    if (allowed.length > 0) {
      return new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, { headers: { Allow: allowed.join(', ') } })
    }
    return new AppError('route_not_found', `No operation at ${request.method} ${path}. See ${config.publicUrl}/v2/api-docs.`)
  }
  // Under the base URLs a 404 or 405 is answered before the body is read (rate-limited, as the not-found
  // handler is): neither a body nor a missing Content-Type (which Fastify demands of QUERY) turns it into
  // a 400 or 415. Other paths (v1, the callbacks) keep their own not-found handlers.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404) return done()
    const path = request.url.split('?')[0]
    if (!BASES.some((b) => path === b.prefix || path.startsWith(`${b.prefix}/`))) return done()
    ;(limiter as unknown as (req: FastifyRequest, rep: FastifyReply) => Promise<void>)
      .call(app, request, reply)
      .then(
        () => sendProblem(request, reply, unroutedProblem(request)),
        (limited) => sendProblem(request, reply, toAppError(limited)),
      )
      .catch(done)
  })
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => sendProblem(request, reply, unroutedProblem(request)))
  /**
   * A method the HTTP parser does not know at all (`FOO /v2/…`) fails before any request exists; under
   * the base URLs it still gets the 405 (with Allow) or 404 its path deserves, not "not valid HTTP".
   */
  function unknownMethod(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): boolean {
    if (err.code !== 'HPE_INVALID_METHOD' || !socket.writable || !Buffer.isBuffer(err.rawPacket)) return false
    const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^\s?]*)\S* HTTP\/1\.[01]\r?\n/.exec(err.rawPacket.subarray(0, 2048).toString('latin1'))
    if (!line || !BASES.some((b) => line[2] === b.prefix || line[2].startsWith(`${b.prefix}/`))) return false
    const problem = unroutedProblem({ method: line[1], url: line[2] } as FastifyRequest)
    writeRawProblem(socket, problem.status, problem.code, problem.detail, problem.headers)
    return true
  }

  function routeOptions(r: AnyRoute, mode: Mode): RouteOptions {
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
        scope: r.scope,
        module: r.module,
        mode,
        public: !!r.public,
        ...(r.rateLimit ? { rateLimit: { max: typeof r.rateLimit.max === 'function' ? r.rateLimit.max(config) : r.rateLimit.max, timeWindow: r.rateLimit.timeWindowMs, groupId: r.rateLimit.groupId } } : {}),
      },
      schema: {
        operationId: r.operationId,
        summary: r.summary,
        description: `${r.description ?? r.summary}\n\nRequired scope: \`${r.scope}\`.${r.public ? '' : ` Minimum member role: \`${minRoleOf(r)}\`.`} Reference: ${config.publicUrl}/v2/api-docs/${r.module}/${r.operationId}`,
        tags: [r.module],
        ...(r.public
          ? { security: [] }
          : { security: ((r.anyScope ?? [r.scope]) as string[]).flatMap((sc) => [{ bearerAuth: [sc] }, ...tokenSchemes.map((t) => ({ [t.name]: [sc] }))]) }),
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
        const auth = r.public ? undefined : authenticate(request, r, mode)
        if (auth) auth.then(read, done)
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
            idempotency.begin(request, reply, scopeId).then(() => done(), done)
          }
        : undefined,
      handler: async (request, reply) => {
        if (r.sse) {
          const base = { params: request.params, query: request.query, body: request.body, principal: request.principal ?? null, services, request, reply }
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
              const ctx = { ...base, stream, reauthenticate: () => reauthenticate(request, r, mode) }
              return r.handler(ctx)
            },
            record,
          )
        }
        const claim = request.idempotency
        // An idempotent request gets its own principal object, the owner its services hand to kernel.transaction.
        const principal = claim && request.principal ? { ...request.principal } : (request.principal ?? null)
        if (claim) {
          // The claim object itself: what its transaction stores on it is what onSend then reads.
          const active = Object.assign(claim, { status, serialize: (v: unknown, s: number) => (reply.getSerializationFunction(String(s)) ?? JSON.stringify)(v as Record<string, unknown>) })
          bindClaim(principal ?? request, active)
        }
        const result = await auditScope.run(auditScopeOf(request, r, principal), () =>
          r.handler({ params: request.params, query: request.query, body: request.body, principal, services, request, reply }),
        )
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

  /**
   * Sets request.principal or throws; returns a promise only when the key's principal is not known yet
   * (the rate limiter has usually looked it up already). Public operations (the Playground) skip this:
   * receivers under test send their own tokens.
   */
  function authenticate(request: FastifyRequest, r: AnyRoute, mode: Mode): Promise<void> | undefined {
    const key = bearer(request)
    if (!key) {
      throw new AppError('unauthorized', 'Send your API key as "Authorization: Bearer svc_live_…" (or svc_test_… on the sandbox URL).')
    }
    const km = keyMode(key)
    if (!km) {
      const resolver = resolverFor(resolvers, key)
      if (!resolver) throw new AppError('unauthorized', 'The API key is malformed.')
      return principalOf(request, key).then((principal) => admitToken(request, r, mode, resolver.name, principal))
    }
    if (km !== mode) {
      const url = `${config.publicUrl}${BASE_OF[km]}`
      throw new AppError(
        'wrong_environment',
        km === 'test' ? `svc_test_ keys work only on the sandbox base URL ${url}.` : `svc_live_ keys work only on the live base URL ${url}.`,
      )
    }
    const known = principals.get(request)
    if (known !== undefined) {
      admit(request, r, known)
      return undefined
    }
    return principalOf(request, key).then((principal) => admit(request, r, principal))
  }

  /**
   * A token's mode is known only once it is found: a test-mode grant on /v2 (or a live one on the sandbox)
   * is `wrong_environment`, as a key of the other prefix is. Failures carry RFC 6750's WWW-Authenticate.
   */
  function admitToken(request: FastifyRequest, r: AnyRoute, mode: Mode, name: string, principal: Principal | null): void {
    const challenge = (error: string, extra = '') => ({ 'WWW-Authenticate': `Bearer realm="svc", error="${error}"${extra}` })
    if (!principal) throw new AppError('unauthorized', `The ${name} is unknown, expired or revoked.`, { headers: challenge('invalid_token') })
    if (principal.mode !== mode) {
      const url = `${config.publicUrl}${BASE_OF[principal.mode]}`
      throw new AppError('wrong_environment', `This ${name} was granted for ${principal.mode === 'test' ? 'the sandbox' : 'live'}: use ${url}.`, { headers: challenge('invalid_token') })
    }
    try {
      admit(request, r, principal)
    } catch (err) {
      if (err instanceof AppError && err.code === 'insufficient_scope') Object.assign(err.headers, challenge('insufficient_scope', `, scope="${r.scope}"`))
      throw err
    }
  }

  /**
   * A long-lived request (an event stream) asks again whether its credential still admits it: the key or
   * token looked up afresh (revoked, expired, a member removed or demoted), with the same checks. The
   * principal as it is now, or null.
   */
  async function reauthenticate(request: FastifyRequest, r: AnyRoute, mode: Mode): Promise<Principal | null> {
    const key = bearer(request)
    if (!key) return null
    const resolver = keyMode(key) ? null : resolverFor(resolvers, key)
    if (!keyMode(key) && !resolver) return null
    const principal = resolver ? await resolver.resolve(key) : await findPrincipal(kernel.db, key)
    if (!principal || principal.mode !== mode) return null
    try {
      admit({} as FastifyRequest, r, principal)
      return principal
    } catch {
      return null
    }
  }

  function admit(request: FastifyRequest, r: AnyRoute, principal: Principal | null): void {
    if (!principal) throw new AppError('unauthorized', 'The API key is unknown or has been revoked.')
    request.principal = principal
    if (r.anyScope ? !r.anyScope.some((s: string) => hasScope(principal.scopes, s)) : !hasScope(principal.scopes, r.scope)) {
      const wanted = r.anyScope ? `one of the scopes ${(r.anyScope as string[]).map((s) => `'${s}'`).join(', ')}` : `the scope '${r.scope}'`
      throw new AppError('insufficient_scope', `This operation requires ${wanted}; the ${principal.actor ? 'token' : 'key'} has: ${principal.scopes.join(' ') || '(none)'}.`, {
        required_scope: r.scope,
      })
    }
    // A person's credential (dashboard session, OAuth grant) is bound by their role as well (kernel/auth/roles.ts).
    const needed = minRoleOf(r)
    if (principal.role && !roleAtLeast(principal.role, needed)) {
      throw new AppError('insufficient_role', `This operation needs the role '${needed}' or higher; your role in this workspace is '${principal.role}'.`, {
        required_role: needed,
      })
    }
  }

  return app
}

/**
 * Response serializers built on a route's first use, once per schema: fast-json-stringify compiles a
 * function per route and status at start, twice over (live and sandbox share every schema), which was
 * ~1.3 s of a ~5 s cold start. A route never called never pays.
 */
const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options)
  const bySchema = new WeakMap<object, (data: unknown) => string>()
  return (route) => {
    let serialize: ((data: unknown) => string) | undefined
    return (data: unknown) => {
      if (!serialize) {
        serialize = bySchema.get(route.schema as object)
        if (!serialize) bySchema.set(route.schema as object, (serialize = build(route)))
      }
      return serialize(data)
    }
  }
}

/** The HTTP parser rejected the bytes: answer a minimal problem on the socket, as Fastify's default does. */
function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const [status, code, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'request_header_fields_too_large', 'The request headers are too large.'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'bad_request', 'The request was not received in time.'] as const)
        : ([400, 'bad_request', 'The request is not valid HTTP.'] as const)
  const requestId = nextRequestId()
  const body = JSON.stringify({ type: problemTypeUri(code), title: errorSpec(code).title, status, detail, instance: '', code, request_id: requestId })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-ID: ${requestId}\r\nSvc-Api-Version: ${API_VERSION}\r\nConnection: close\r\n\r\n${body}`,
  )
}

/** A problem written straight to the socket (no request object exists), closing the connection. */
function writeRawProblem(socket: Socket, status: number, code: string, detail: string, headers: Record<string, string> = {}): void {
  const requestId = nextRequestId()
  const body = JSON.stringify({ type: problemTypeUri(code), title: errorSpec(code).title, status, detail, instance: '', code, request_id: requestId })
  const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}` +
      `X-Request-ID: ${requestId}\r\nSvc-Api-Version: ${API_VERSION}\r\nConnection: close\r\n\r\n${body}`,
  )
}

function isLoopback(address: string | undefined): boolean {
  return !!address && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(hashKey(a))
  const y = Buffer.from(hashKey(b))
  return timingSafeEqual(x, y)
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

// Request ids: a random per-process prefix and a counter — unique across nodes, no entropy per request.
const REQUEST_ID_PREFIX = `req_${randomToken(6)}`
let requestCounter = 0
function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER
  return `${REQUEST_ID_PREFIX}${requestCounter.toString(36)}`
}

/** @fastify/rate-limit sends X-RateLimit-*; add the IETF draft fields and make Reset an epoch time. */
function ietfRateLimitHeaders(request: FastifyRequest, reply: import('fastify').FastifyReply): void {
  const limit = reply.getHeader('x-ratelimit-limit')
  const remaining = reply.getHeader('x-ratelimit-remaining')
  const reset = reply.getHeader('x-ratelimit-reset')
  if (limit === undefined || remaining === undefined || reset === undefined) return
  const secondsLeft = Number(reset)
  const policy = request.routeOptions.config?.rateLimit ? 'replay' : 'default'
  reply.header('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + secondsLeft))
  reply.header('RateLimit-Policy', `"${policy}";q=${String(limit)};w=60`)
  reply.header('RateLimit', `"${policy}";r=${String(remaining)};t=${secondsLeft}`)
}


/** What a log line names a request by: its route template (`/v2/leads/:id`), or none when no route matched. */
export const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? '(no route)'

/** Who changes what in this request, for the audit log: the key, the operation, the client, the body's field names. */
function auditScopeOf(request: FastifyRequest, r: AnyRoute, principal: Principal | null): AuditScope {
  const body = request.body
  const fields = body && typeof body === 'object' && !Buffer.isBuffer(body) && !Array.isArray(body) ? Object.keys(body as object) : []
  const id = (request.params as { id?: unknown } | undefined)?.id
  return {
    actor: principal ? (principal.actor ?? { type: 'api_key', id: principal.keyId }) : { type: 'anonymous', id: null },
    action: r.operationId,
    ip: request.ip,
    userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
    requestId: String(request.id),
    fields,
    targetId: typeof id === 'string' ? id : null,
  }
}
