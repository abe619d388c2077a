import { recordAudit } from './kernel/audit/audit.js'
import { AuditChain } from './kernel/audit/audit-chain.js'
import { upgradeAuditChains } from './kernel/audit/audit-upgrade.js'
import type { FastifyInstance } from 'fastify'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { createLogger } from './logger.js'
import type { Config } from './config.js'
import { createAiEngine } from './kernel/ai/ai.js'
import { openBlobStore } from './kernel/blobs/open-blob-store.js'
import { ToolRegistry } from './kernel/tools/tools.js'
import { createEmbeddings } from './kernel/ai/embeddings.js'
import { systemClock, type Clock } from './kernel/clock.js'
import { createDatabase, ensureSchema, type Database } from './kernel/db/database.js'
import { kernelMigrations } from './kernel/db/kernel.migrations.js'
import { migrateToLatest } from './kernel/db/migrations.js'
import { EventBus, emittedDuring, loadEvent } from './kernel/events/events.js'
import { EventFeed } from './kernel/events/event-feed.js'
import { feedBusFor } from './kernel/events/feed-bus.js'
import { SecretBox } from './kernel/crypto/secret-box.js'
import { deriveKey, loadServerSecret } from './kernel/crypto/server-secret.js'
import { checkServerSecret } from './kernel/crypto/secret-verifier.js'
import { IdempotencyStore, claimFor } from './kernel/http/idempotency.js'
import { Paginator } from './kernel/http/pagination.js'
import { RequestCounter } from './kernel/http/request-counter.js'
import { ApiLogRecorder } from './kernel/http/api-log.js'
import { createHttpServer, type HttpOptions } from './kernel/http/server.js'
import { SharedCounters } from './kernel/http/rate-limit-store.js'
import { Dependencies } from './kernel/dependencies.js'
import { JobRunner, type JobObserver } from './kernel/jobs/runner.js'
import { enqueuedDuring } from './kernel/jobs/jobs.js'
import type { Kernel } from './kernel/kernel.js'
import type { Services } from './kernel/services.js'
import { Metrics } from './kernel/metrics.js'
import { MODULES } from './modules/index.js'
import { SCOPES } from './kernel/auth/scopes.js'
import { flushTracing, startTracing } from './kernel/tracing/tracing.js'

export interface AppDeps {
  config: Config
  clock?: Clock
  logger?: Logger
  /** Open an existing database instead of the one in config.databaseUrl. */
  database?: Database
  jobObserver?: JobObserver
  onResponse?: HttpOptions['onResponse']
  /** The modules, in init order (default MODULES): a test may add one that is not registered yet. */
  modules?: typeof MODULES
}

export interface App {
  kernel: Kernel
  metrics: Metrics
  services: Services
  http: FastifyInstance
  redis: Redis | null
  close(): Promise<void>
}

/** Open the database, run every module's migrations, build the kernel and the services. */
export async function createKernel(deps: AppDeps): Promise<{ kernel: Kernel; services: Services }> {
  const { config } = deps
  const clock = deps.clock ?? systemClock
  const log = deps.logger ?? createLogger(config)
  const modules = deps.modules ?? MODULES
  // Before the database opens: its query logger (a span per statement) is chosen when it is created.
  await startTracing(config.tracing, log)
  let database = deps.database
  if (!database) {
    await ensureSchema(config.databaseUrl, config.databaseSchema)
    database = createDatabase(config.databaseUrl, { schema: config.databaseSchema, groupCommit: config.databaseGroupCommit, checkpointThread: config.databaseCheckpointThread })
  }
  await migrateToLatest(database.db, database.engine, [...kernelMigrations, ...modules.flatMap((m) => m.migrations)], database.schema)
  const db = database.db
  const jobs = new JobRunner(database, clock, log, { concurrency: config.jobConcurrency, pollIntervalMs: config.jobPollIntervalMs, leaseSeconds: config.jobLeaseSeconds }, deps.jobObserver)
  const loaded = loadServerSecret({ secret: config.serverSecret, dataDir: config.dataDir })
  if (loaded.source === 'generated') log.info({ path: loaded.path }, 'generated the server secret (set SERVER_SECRET to share one across nodes)')
  const previousSecrets = config.serverSecretPrevious.map((s) => Buffer.from(s, 'utf8'))
  // Before anything reads or writes sealed data: a node under another secret stops here, with the setting named.
  const verified = await checkServerSecret(db, clock, loaded.secret, previousSecrets, { source: loaded.source, path: loaded.path, dataDir: config.dataDir }).catch(async (err) => {
    if (!deps.database) await database.close()
    throw err
  })
  if (verified === 'rotated') log.warn('the server secret was rotated: the database now records the current SERVER_SECRET (nodes still on the old one will refuse to start)')
  const blobs = await openBlobStore(config.blobs)
  const audit = new AuditChain(db, blobs, clock, loaded.secret, previousSecrets)
  const upgraded = await upgradeAuditChains(db, clock, audit)
  if (upgraded && upgraded.entries > 0) log.warn(upgraded, 'audit chains re-sealed under the keyed scheme (HMAC-SHA256 of the server secret), once')
  const paginator = new Paginator(deriveKey(loaded.secret, 'cursor'))
  const events = new EventBus(clock, (id) => loadEvent(db, id))
  jobs.register(events.dispatchJob)
  const feed = new EventFeed(db, log, config.eventFeed)
  const kernel: Kernel = {
    config,
    database,
    db,
    clock,
    log,
    events,
    feed,
    jobs,
    ai: createAiEngine(config.ai, log),
    embeddings: createEmbeddings(config.embeddings, log),
    tools: new ToolRegistry(),
    requests: new RequestCounter(db, log),
    apiLogs: new ApiLogRecorder(database, clock, log, { enabled: config.apiLogs }),
    modules,
    dependencies: new Dependencies(),
    secrets: new SecretBox(loaded.secret, previousSecrets),
    deriveKey: (purpose: string) => deriveKey(loaded.secret, purpose),
    audit,
    blobs,
    paginate: (spec) => paginator.paginate(spec),
    async transaction(owner, fn) {
      // An idempotent request's key is marked committed in the same transaction as its effect.
      const claim = claimFor(owner)
      // Only a transaction that enqueued a job wakes the runner: a wake is a claim query, and most writes queue nothing.
      let enqueued = false
      let emitted = false
      const result = await db.transaction().execute(async (tx) => {
        const r = await fn(tx)
        if (claim) await IdempotencyStore.commitInTransaction(tx, claim, r)
        await recordAudit(tx, clock, owner, r, audit.entryMac)
        enqueued = enqueuedDuring(tx)
        emitted = emittedDuring(tx)
        return r
      })
      if (enqueued) jobs.wake()
      if (emitted) feed.committed()
      return result
    },
  }
  // The scopes keys and routes may name: the modules' declarations, assembled before any route is compiled.
  SCOPES.assemble(modules)
  const services = {} as Services
  const initialised = new Set<string>()
  for (const m of modules) {
    // A module may call only the services of modules initialised before it (MODULES is the init order).
    const missing = (m.uses ?? []).filter((name) => !initialised.has(name))
    if (missing.length > 0) throw new Error(`module ${m.name} uses ${missing.join(', ')}, which must come before it in MODULES`)
    m.init(kernel, services)
    initialised.add(m.name)
  }
  return { kernel, services }
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const metrics = new Metrics()
  const { kernel, services } = await createKernel({
    ...deps,
    jobObserver: {
      onJobFinished(name, outcome, seconds) {
        metrics.observeJob(name, outcome, seconds)
        deps.jobObserver?.onJobFinished?.(name, outcome, seconds)
      },
    },
  })
  metrics.attach(kernel, services)
  // ioredis (~9 MB resident) is loaded only when REDIS_URL is set. No offline queue and short timeouts: while
  // Redis is away a request counts its rate limit in this process at once instead of waiting for a reconnect.
  const { redis: redisSettings } = deps.config
  const redis = deps.config.redisUrl
    ? new (await import('ioredis')).Redis(deps.config.redisUrl, {
        maxRetriesPerRequest: 0,
        enableOfflineQueue: false,
        connectTimeout: redisSettings.connectTimeoutMs,
        commandTimeout: redisSettings.commandTimeoutMs,
        lazyConnect: false,
      })
    : null
  const counters = redis ? new SharedCounters(redis, kernel.log, redisSettings.keyPrefix) : null
  if (counters) {
    kernel.dependencies.add('redis', () => counters.check())
    await counters.connected(redisSettings.connectTimeoutMs)
  }
  await kernel.feed.connect(feedBusFor(kernel.config, kernel.database, redis, kernel.log))
  const http = await createHttpServer(
    kernel,
    services,
    kernel.modules.flatMap((m) => m.routes),
    {
      counters,
      metrics,
      onResponse(request, status, seconds) {
        metrics.observeRequest(request, status, seconds)
        deps.onResponse?.(request, status, seconds)
      },
    },
  )
  await http.ready()
  return {
    kernel,
    metrics,
    services,
    http,
    redis,
    /** Graceful: stop accepting and finish in-flight requests, then let jobs finish or hand leases back. */
    async close() {
      await http.close()
      await kernel.feed.close()
      await kernel.jobs.stop(kernel.config.shutdownTimeoutMs)
      await kernel.requests.flush()
      // QUIT needs a connection; a client still trying to reconnect is stopped instead.
      if (redis?.status === 'ready') await redis.quit().catch(() => redis.disconnect())
      else redis?.disconnect()
      await kernel.database.close()
      kernel.blobs.close?.()
      // Spans of the last requests and jobs are exported before the process ends (a no-op when tracing is off).
      await flushTracing()
    },
  }
}
