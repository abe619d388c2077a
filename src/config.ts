// The only file that reads process.env: everything else receives a Config.
import { availableParallelism } from 'node:os'
import { dirname } from 'node:path'
import ipaddr from 'ipaddr.js'

export interface Config {
  host: string
  port: number
  databaseUrl: string
  /** PostgreSQL schema to use (search_path); lets tests and several deployments share one database. */
  databaseSchema: string | null
  redisUrl: string | null
  /**
   * Redis client bounds (REDIS_CONNECT_TIMEOUT_MS, REDIS_COMMAND_TIMEOUT_MS): past them a request counts its
   * rate limit in this process instead of waiting (kernel/http/rate-limit-store.ts).
   */
  redis: {
    connectTimeoutMs: number
    commandTimeoutMs: number
  }
  /**
   * Which peers may set the client address through X-Forwarded-For (TRUST_PROXY): false (default) = the TCP
   * peer is the client; true = any; a number = that many proxy hops; a list = those addresses/CIDRs. Passed
   * to Fastify's trustProxy: request.ip, the anonymous rate-limit bucket and the audit log's ip follow it.
   */
  trustProxy: boolean | number | string[]
  /** The HTTP server's limits on slow and idle clients (HTTP_* settings, docs/operations.md). */
  http: {
    /** The whole header section must arrive within this (Node's headersTimeout). */
    headersTimeoutMs: number
    /** The whole request, body included, must arrive within this (Node's requestTimeout); 408 or closed after. */
    requestTimeoutMs: number
    /** An idle keep-alive connection is closed after this. */
    keepAliveTimeoutMs: number
    /** Open connections one client address may hold (0 = no cap); trusted proxies are exempt. */
    maxConnectionsPerIp: number
  }
  rateLimitPerMinute: number
  replayRateLimitPerMinute: number
  /** Public base of this service, used in links (defaults to http://localhost:PORT). */
  publicUrl: string
  docsBaseUrl: string
  logLevel: string
  role: 'api' | 'worker' | 'all'
  /** HTTP processes on this box (WEB_CONCURRENCY, a number or `auto` = one per core): more than 1 forks them with node:cluster. */
  webConcurrency: number
  /** Which of those processes this is (0 = the first, which alone runs jobs when the role has them); set by the cluster's primary. */
  processSlot: number
  bodyLimitBytes: number
  idempotencyRetentionHours: number
  jobPollIntervalMs: number
  jobConcurrency: number
  /** A job claim older than this is presumed dead (worker crashed) and taken over. */
  jobLeaseSeconds: number
  shutdownTimeoutMs: number
  /** Interval of the `: ping` comment on event streams (SSE_HEARTBEAT_MS). */
  sseHeartbeatMs: number
  /** The live event stream (GET /events/stream, kernel/events/event-feed.ts). */
  eventFeed: {
    /** How nodes wake each other and carry presence: postgres (LISTEN/NOTIFY), redis (pub/sub), none (polling only); auto picks. */
    bus: 'auto' | 'postgres' | 'redis' | 'none'
    pollMs: number
    lookbackMs: number
    /** How often a connected stream checks that its credential is still valid (revoked keys, removed members). */
    recheckMs: number
  }
  metricsToken: string | null
  /** Record every API request for GET /api-logs and GET /usage (API_LOGS=on|off, default on). */
  apiLogs: boolean
  /** Serve GET /metrics without METRICS_TOKEN to non-loopback clients (off by default). */
  metricsPublic: boolean
  /** Keys signing and encryption (cursors, secrets at rest); null = generated into dataDir on first start. */
  serverSecret: string | null
  /** Earlier server secrets, still accepted to open values sealed before a rotation (SERVER_SECRET_PREVIOUS, comma-separated). */
  serverSecretPrevious: string[]
  /** Where the service keeps local files (generated server secret, first-start keys, the SQLite file by default). */
  dataDir: string
  /** An Idempotency-Key claim whose request has not finished after this long is presumed abandoned. */
  idempotencyLockSeconds: number
  /** When the deprecated /api/v1 endpoints stop working (V1_SUNSET, an ISO date): after it they answer 410. */
  v1Sunset: Date
  /** Where the built dashboard lives (DASHBOARD_DIR, default `dashboard/dist` under the working directory). */
  dashboardDir: string
  ai: {
    provider: 'builtin' | 'openai'
    baseUrl: string | null
    apiKey: string | null
    model: string
    timeoutMs: number
  }
  /** Any OpenAI-compatible POST /embeddings endpoint; null = keyword search only (no EMBEDDINGS_* set). */
  embeddings: {
    baseUrl: string | null
    apiKey: string | null
    model: string
    timeoutMs: number
  } | null
  webhooks: {
    retryScheduleSeconds: number[]
    timeoutMs: number
    allowPrivateNetworks: boolean
    disableAfterHours: number
  }
  knowledge: {
    /** Largest document accepted by uploadKnowledgeDocument (file or JSON text), in bytes; beyond it 413. */
    maxUploadBytes: number
    /** The most a ZIP-based file (DOCX) may unpack to, checked while unpacking; beyond it the document fails. */
    maxInflatedBytes: number
    /** The most characters of text a parsed document may have; beyond it the document fails. */
    maxTextChars: number
    /** The most chunks one document may make; beyond it the document fails. */
    maxChunks: number
    /** Worker threads that parse and chunk documents (off the event loop). */
    parseThreads: number
    /** Heap limit of each parsing thread, in MB: a document needing more fails, the process goes on. */
    parseMemoryMb: number
    /** A document whose parsing takes longer fails. */
    parseTimeoutMs: number
  }
  /**
   * Every fetch made on a user's behalf (webhook deliveries, knowledge crawls): OUTBOUND_ALLOW_PRIVATE_NETWORKS
   * (or its older name WEBHOOK_ALLOW_PRIVATE_NETWORKS) lets them reach loopback and private networks, for
   * tests and single-box installs. Link-local and metadata addresses stay refused.
   */
  outbound: {
    allowPrivateNetworks: boolean
  }
  /** Files the service keeps (call recordings): BLOB_DIR, a local directory (default `<DATA_DIR>/blobs`). */
  blobs: {
    dir: string
  }
  voice: {
    /** The speech synthesiser run as a separate program (VOICE_SPEECH_COMMAND, default `espeak-ng`); missing = recordings `unavailable`. */
    speechCommand: string
    /**
     * Multiplies the simulated carrier's dialling and ringing times (VOICE_SIM_SETUP_SCALE, default 1: realistic);
     * 0 answers at once (demos, tests). The conversation itself always takes as long as its audio.
     */
    simSetupScale: number
  }
  /** Any OpenAI-compatible POST /audio/transcriptions endpoint (TRANSCRIPTION_*); null = carrier recordings are not transcribed. */
  transcription: {
    baseUrl: string | null
    apiKey: string | null
    model: string
    timeoutMs: number
  } | null
}

const SVIX_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000]

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`)
  return n
}

function bool(env: NodeJS.ProcessEnv, name: string): boolean {
  return /^(1|true|yes|on)$/i.test(env[name] ?? '')
}

function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase()
  if (raw === '') return fallback
  if (['on', 'true', '1', 'yes'].includes(raw)) return true
  if (['off', 'false', '0', 'no'].includes(raw)) return false
  throw new Error(`${name} must be on or off, got "${env[name]}"`)
}

export function parseSchedule(raw: string | undefined): number[] {
  if (!raw) return SVIX_SCHEDULE
  const parts = raw.split(',').map((s) => Number(s.trim()))
  if (parts.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new Error(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "${raw}"`)
  }
  return parts
}

/** The SQLite file's folder (the data lives together), else ./data. */
function defaultDataDir(databaseUrl: string): string {
  const path = databaseUrl.startsWith('sqlite:') ? databaseUrl.slice('sqlite:'.length) : ''
  if (!path || path === ':memory:') return './data'
  return dirname(path)
}

function isoDate(env: NodeJS.ProcessEnv, name: string, fallback: string): Date {
  const raw = env[name] || fallback
  const d = new Date(raw)
  if (Number.isNaN(d.getTime())) throw new Error(`${name} must be an ISO 8601 date, got "${raw}"`)
  return d
}

/** WEB_CONCURRENCY: a whole number ≥ 1, or `auto` for one process per core the OS gives this one. */
function concurrency(env: NodeJS.ProcessEnv): number {
  const raw = (env.WEB_CONCURRENCY ?? '').trim().toLowerCase()
  if (raw === '') return 1
  if (raw === 'auto') return availableParallelism()
  const n = Number(raw)
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`WEB_CONCURRENCY must be a whole number from 1 to 256, or auto, got "${env.WEB_CONCURRENCY}"`)
  return n
}

/** TRUST_PROXY: unset/false, true, a hop count, or comma-separated addresses, CIDRs and proxy-addr's names. */
export function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = (raw ?? '').trim()
  if (value === '' || /^(false|off|no|0)$/i.test(value)) return false
  if (/^(true|on|yes)$/i.test(value)) return true
  if (/^\d+$/.test(value)) return Number(value)
  const entries = value.split(',').map((s) => s.trim()).filter(Boolean)
  const named = new Set(['loopback', 'linklocal', 'uniquelocal'])
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const ok = named.has(entry) || (extra === undefined && ipaddr.isValid(address) && (bits === undefined || /^\d{1,3}$/.test(bits)))
    if (!ok) throw new Error(`TRUST_PROXY must be true, false, a number of hops, or comma-separated IP addresses/CIDRs (or loopback, linklocal, uniquelocal); "${entry}" is none of these`)
  }
  return entries
}

function eventFeed(env: NodeJS.ProcessEnv): Config['eventFeed'] {
  const bus = (env.EVENT_FEED_BUS || 'auto').toLowerCase() as Config['eventFeed']['bus']
  if (!['auto', 'postgres', 'redis', 'none'].includes(bus)) throw new Error(`EVENT_FEED_BUS must be auto, postgres, redis or none, got "${env.EVENT_FEED_BUS}"`)
  const feed = { bus, pollMs: int(env, 'EVENT_FEED_POLL_MS', 250), lookbackMs: int(env, 'EVENT_FEED_LOOKBACK_MS', 2000), recheckMs: int(env, 'EVENT_STREAM_RECHECK_MS', 30_000) }
  if (feed.pollMs < 10) throw new Error('EVENT_FEED_POLL_MS must be at least 10')
  if (feed.recheckMs < 100) throw new Error('EVENT_STREAM_RECHECK_MS must be at least 100')
  return feed
}

function httpLimits(env: NodeJS.ProcessEnv): Config['http'] {
  const limits = {
    headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000),
    requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 120_000),
    keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000),
    maxConnectionsPerIp: int(env, 'HTTP_MAX_CONNECTIONS_PER_IP', 100),
  }
  // Node refuses a header timeout longer than the request's; 0 would mean "wait forever" (the fault this prevents).
  if (limits.headersTimeoutMs < 1 || limits.requestTimeoutMs < 1) throw new Error('HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS must be at least 1')
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS')
  return limits
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env, 'PORT', 8080)
  const host = env.HOST || '0.0.0.0'
  const role = (env.SVC_ROLE || 'all') as Config['role']
  if (!['api', 'worker', 'all'].includes(role)) throw new Error(`SVC_ROLE must be api, worker or all, got "${role}"`)
  const provider = (env.AI_PROVIDER || 'builtin') as Config['ai']['provider']
  if (!['builtin', 'openai'].includes(provider)) throw new Error(`AI_PROVIDER must be builtin or openai`)
  const databaseUrl = env.DATABASE_URL || 'sqlite:./data/svc.sqlite'
  const dataDir = env.DATA_DIR || defaultDataDir(databaseUrl)
  const publicUrl = (env.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '')
  return {
    host,
    port,
    databaseUrl,
    databaseSchema: env.DATABASE_SCHEMA || null,
    redisUrl: env.REDIS_URL || null,
    redis: {
      connectTimeoutMs: int(env, 'REDIS_CONNECT_TIMEOUT_MS', 1000),
      commandTimeoutMs: int(env, 'REDIS_COMMAND_TIMEOUT_MS', 500),
    },
    trustProxy: trustProxy(env.TRUST_PROXY),
    http: httpLimits(env),
    rateLimitPerMinute: int(env, 'RATE_LIMIT_PER_MINUTE', 600),
    replayRateLimitPerMinute: int(env, 'REPLAY_RATE_LIMIT_PER_MINUTE', 60),
    publicUrl,
    docsBaseUrl: (env.DOCS_BASE_URL || `${publicUrl}/v2/api-docs`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    role,
    webConcurrency: concurrency(env),
    processSlot: int(env, 'SVC_PROCESS_SLOT', 0),
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    idempotencyRetentionHours: int(env, 'IDEMPOTENCY_RETENTION_HOURS', 24),
    jobPollIntervalMs: int(env, 'JOB_POLL_INTERVAL_MS', 250),
    jobConcurrency: int(env, 'JOB_CONCURRENCY', 64),
    jobLeaseSeconds: int(env, 'JOB_LEASE_SECONDS', 60),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    sseHeartbeatMs: int(env, 'SSE_HEARTBEAT_MS', 15_000),
    eventFeed: eventFeed(env),
    metricsToken: env.METRICS_TOKEN || null,
    apiLogs: onOff(env, 'API_LOGS', true),
    metricsPublic: bool(env, 'METRICS_PUBLIC'),
    serverSecret: env.SERVER_SECRET || null,
    serverSecretPrevious: (env.SERVER_SECRET_PREVIOUS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    dataDir,
    idempotencyLockSeconds: int(env, 'IDEMPOTENCY_LOCK_SECONDS', 60),
    v1Sunset: isoDate(env, 'V1_SUNSET', '2027-06-30T00:00:00Z'),
    dashboardDir: env.DASHBOARD_DIR || 'dashboard/dist',
    ai: {
      provider,
      baseUrl: env.AI_BASE_URL || null,
      apiKey: env.AI_API_KEY || null,
      model: env.AI_MODEL || (provider === 'builtin' ? 'builtin-bm25' : 'gpt-4o-mini'),
      timeoutMs: int(env, 'AI_TIMEOUT_MS', 10_000),
    },
    embeddings:
      env.EMBEDDINGS_BASE_URL || env.EMBEDDINGS_API_KEY
        ? {
            baseUrl: env.EMBEDDINGS_BASE_URL || null,
            apiKey: env.EMBEDDINGS_API_KEY || null,
            model: env.EMBEDDINGS_MODEL || 'text-embedding-3-small',
            timeoutMs: int(env, 'EMBEDDINGS_TIMEOUT_MS', 10_000),
          }
        : null,
    webhooks: {
      retryScheduleSeconds: parseSchedule(env.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 15_000),
      allowPrivateNetworks: bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS') || bool(env, 'OUTBOUND_ALLOW_PRIVATE_NETWORKS'),
      disableAfterHours: int(env, 'WEBHOOK_DISABLE_AFTER_HOURS', 120),
    },
    knowledge: {
      maxUploadBytes: int(env, 'KNOWLEDGE_MAX_UPLOAD_BYTES', 20 * 1024 * 1024),
      maxInflatedBytes: int(env, 'KNOWLEDGE_MAX_INFLATED_BYTES', 64 * 1024 * 1024),
      maxTextChars: int(env, 'KNOWLEDGE_MAX_TEXT_CHARS', 20_000_000),
      maxChunks: int(env, 'KNOWLEDGE_MAX_CHUNKS', 50_000),
      parseThreads: int(env, 'KNOWLEDGE_PARSE_THREADS', 2),
      parseMemoryMb: int(env, 'KNOWLEDGE_PARSE_MEMORY_MB', 1024),
      parseTimeoutMs: int(env, 'KNOWLEDGE_PARSE_TIMEOUT_MS', 300_000),
    },
    outbound: {
      allowPrivateNetworks: bool(env, 'OUTBOUND_ALLOW_PRIVATE_NETWORKS') || bool(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'),
    },
    blobs: {
      dir: env.BLOB_DIR || `${dataDir}/blobs`,
    },
    voice: {
      speechCommand: env.VOICE_SPEECH_COMMAND || 'espeak-ng',
      simSetupScale: int(env, 'VOICE_SIM_SETUP_SCALE', 1),
    },
    transcription:
      env.TRANSCRIPTION_BASE_URL || env.TRANSCRIPTION_API_KEY
        ? {
            baseUrl: env.TRANSCRIPTION_BASE_URL || null,
            apiKey: env.TRANSCRIPTION_API_KEY || null,
            model: env.TRANSCRIPTION_MODEL || 'whisper-1',
            timeoutMs: int(env, 'TRANSCRIPTION_TIMEOUT_MS', 60_000),
          }
        : null,
  }
}
