// The only file that reads process.env: everything else receives a Config. Every variable is declared once, with
// its type, limits, default and README text, in src/config-schema.ts; src/config-env.ts checks them.
import { availableParallelism } from 'node:os'
import { dirname } from 'node:path'
import ipaddr from 'ipaddr.js'
import { readEnv } from './config-env.js'
import type { S3Settings } from './kernel/blobs/s3-blob-store.js'
import type { TracingSettings } from './kernel/tracing/tracing.js'
import { s3Settings, tracingSettings } from './config-services.js'
import { ENV_SCHEMA, type EnvValues } from './config-schema.js'

export interface Config {
  host: string
  port: number
  databaseUrl: string
  /** PostgreSQL schema to use (search_path); lets tests and several deployments share one database. */
  databaseSchema: string | null
  /** SQLite group commit (DATABASE_GROUP_COMMIT; kernel/db/sqlite-group-commit.ts). */
  databaseGroupCommit: boolean
  /** SQLite WAL checkpoints on a thread (DATABASE_CHECKPOINT_THREAD; kernel/db/sqlite-checkpointer.ts). */
  databaseCheckpointThread: boolean
  redisUrl: string | null
  /**
   * Redis client bounds (REDIS_CONNECT_TIMEOUT_MS, REDIS_COMMAND_TIMEOUT_MS): past them a request counts its
   * rate limit in this process instead of waiting (kernel/http/rate-limit-store.ts).
   */
  redis: {
    connectTimeoutMs: number
    commandTimeoutMs: number
    /** REDIS_KEY_PREFIX ('' when unset): before every key and channel, so deployments sharing one Redis stay apart. */
    keyPrefix: string
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
    /** Back-pressure (kernel/http/back-pressure.ts): requests in flight, and queries waiting for a pool connection, before 503 (0 = no bound). */
    maxInFlight: number
    maxDatabaseWaiting: number
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
  /** OpenTelemetry traces exported over OTLP/HTTP (the standard OTEL_* variables); null = off, no SDK loaded. */
  tracing: TracingSettings | null
  /** Files the service keeps: BLOB_DIR, a local directory (default `<DATA_DIR>/blobs`), or an S3 bucket (BLOB_STORE=s3). */
  blobs: {
    store: 'local' | 's3'
    dir: string
    s3: S3Settings | null
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
  /** The email channel (docs/channels.md "Email"). */
  email: {
    /** SMTP_LISTEN_PORT: the service's own inbound SMTP listener; null (the default) = off. */
    listenPort: number | null
    /** SMTP_LISTEN_HOST (default 0.0.0.0). */
    listenHost: string
    /** SMTP_HOSTNAME: the name the listener greets with, and the domain of the Message-IDs we make (default PUBLIC_URL's host). */
    hostname: string
    /** EMAIL_MAX_MESSAGE_BYTES (default 25 MiB): larger mail is refused while it is read (SMTP 552, 413 on webhooks). */
    maxMessageBytes: number
    /** EMAIL_MAX_ATTACHMENT_BYTES (default 10 MiB): larger attachments are named in the message, not kept. */
    maxAttachmentBytes: number
    /** SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE (PEM): STARTTLS offered when both are set. */
    tls: { keyFile: string; certFile: string } | null
    /** EMAIL_RELAY_URL (`smtp://user:pass@host:587`, `smtps://…:465`): the default outbound relay of email channels without their own. */
    relayUrl: string | null
  }
  /** Any OpenAI-compatible POST /audio/transcriptions endpoint (TRANSCRIPTION_*); null = carrier recordings are not transcribed. */
  transcription: {
    baseUrl: string | null
    apiKey: string | null
    model: string
    timeoutMs: number
  } | null
}

export function parseSchedule(raw: string | undefined): number[] {
  const parts = (raw || String(ENV_SCHEMA.properties.WEBHOOK_RETRY_SCHEDULE.default)).split(',').map((s) => Number(s.trim()))
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

function isoDate(name: string, raw: string): Date {
  const d = new Date(raw)
  if (Number.isNaN(d.getTime())) throw new Error(`${name} must be an ISO 8601 date, got "${raw}"`)
  return d
}

/** WEB_CONCURRENCY: a whole number from 1 to 256, or `auto` for one process per core the OS gives this one. */
function concurrency(raw: string | undefined): number {
  const value = (raw ?? '').trim().toLowerCase()
  if (value === '') return 1
  if (value === 'auto') return availableParallelism()
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`WEB_CONCURRENCY must be a whole number from 1 to 256, or auto, got "${raw}"`)
  return n
}

/** TRUST_PROXY: unset/false, true, a hop count, or comma-separated addresses, CIDRs and proxy-addr's names. */
export function trustProxy(raw: string | undefined): Config['trustProxy'] {
  const value = (raw ?? '').trim()
  if (value === '' || /^(false|off|no|0)$/i.test(value)) return false
  if (/^(true|on|yes)$/i.test(value)) return true
  if (/^\d+$/.test(value)) return Number(value)
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const named = new Set(['loopback', 'linklocal', 'uniquelocal'])
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/')
    const ok = named.has(entry) || (extra === undefined && ipaddr.isValid(address) && (bits === undefined || /^\d{1,3}$/.test(bits)))
    if (!ok) throw new Error(`TRUST_PROXY must be true, false, a number of hops, or comma-separated IP addresses/CIDRs (or loopback, linklocal, uniquelocal); "${entry}" is none of these`)
  }
  return entries
}

function httpLimits(v: EnvValues): Config['http'] {
  // Node refuses a header timeout longer than the request's; 0 would mean "wait forever" (the fault the schema's minimum of 1 prevents).
  if (v.HTTP_HEADERS_TIMEOUT_MS > v.HTTP_REQUEST_TIMEOUT_MS) throw new Error('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS')
  return {
    headersTimeoutMs: v.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: v.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: v.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerIp: v.HTTP_MAX_CONNECTIONS_PER_IP,
    maxInFlight: v.HTTP_MAX_IN_FLIGHT,
    maxDatabaseWaiting: v.DATABASE_MAX_WAITING,
  }
}

/** OTEL_*: on when an endpoint is set and the SDK is not disabled; headers parsed as the OTLP spec writes them. */
/**
 * The configuration from the environment: every variable is checked against its declaration first
 * (src/config-schema.ts; a ConfigError names each faulty one), then the few that depend on each other.
 * Unknown and mistyped names are not errors here: main.ts logs envWarnings(env).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const v = readEnv(env)
  const port = v.PORT
  const provider = v.AI_PROVIDER
  const databaseUrl = v.DATABASE_URL
  const dataDir = v.DATA_DIR || defaultDataDir(databaseUrl)
  const publicUrl = (v.PUBLIC_URL || `http://localhost:${port}`).replace(/\/$/, '')
  return {
    host: v.HOST,
    port,
    databaseUrl,
    databaseSchema: v.DATABASE_SCHEMA || null,
    databaseGroupCommit: v.DATABASE_GROUP_COMMIT,
    databaseCheckpointThread: v.DATABASE_CHECKPOINT_THREAD,
    redisUrl: v.REDIS_URL || null,
    redis: {
      connectTimeoutMs: v.REDIS_CONNECT_TIMEOUT_MS,
      commandTimeoutMs: v.REDIS_COMMAND_TIMEOUT_MS,
      keyPrefix: v.REDIS_KEY_PREFIX || '',
    },
    trustProxy: trustProxy(v.TRUST_PROXY),
    http: httpLimits(v),
    rateLimitPerMinute: v.RATE_LIMIT_PER_MINUTE,
    replayRateLimitPerMinute: v.REPLAY_RATE_LIMIT_PER_MINUTE,
    publicUrl,
    docsBaseUrl: (v.DOCS_BASE_URL || `${publicUrl}/v2/api-docs`).replace(/\/$/, ''),
    logLevel: v.LOG_LEVEL,
    role: v.SVC_ROLE,
    webConcurrency: concurrency(v.WEB_CONCURRENCY),
    processSlot: v.SVC_PROCESS_SLOT,
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    idempotencyRetentionHours: v.IDEMPOTENCY_RETENTION_HOURS,
    jobPollIntervalMs: v.JOB_POLL_INTERVAL_MS,
    jobConcurrency: v.JOB_CONCURRENCY,
    jobLeaseSeconds: v.JOB_LEASE_SECONDS,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    sseHeartbeatMs: v.SSE_HEARTBEAT_MS,
    eventFeed: { bus: v.EVENT_FEED_BUS, pollMs: v.EVENT_FEED_POLL_MS, lookbackMs: v.EVENT_FEED_LOOKBACK_MS, recheckMs: v.EVENT_STREAM_RECHECK_MS },
    metricsToken: v.METRICS_TOKEN || null,
    apiLogs: v.API_LOGS,
    metricsPublic: v.METRICS_PUBLIC,
    serverSecret: v.SERVER_SECRET || null,
    serverSecretPrevious: (v.SERVER_SECRET_PREVIOUS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    dataDir,
    idempotencyLockSeconds: v.IDEMPOTENCY_LOCK_SECONDS,
    v1Sunset: isoDate('V1_SUNSET', v.V1_SUNSET),
    dashboardDir: v.DASHBOARD_DIR,
    ai: {
      provider,
      baseUrl: v.AI_BASE_URL || null,
      apiKey: v.AI_API_KEY || null,
      model: v.AI_MODEL || (provider === 'builtin' ? 'builtin-bm25' : 'gpt-4o-mini'),
      timeoutMs: v.AI_TIMEOUT_MS,
    },
    embeddings:
      v.EMBEDDINGS_BASE_URL || v.EMBEDDINGS_API_KEY
        ? {
            baseUrl: v.EMBEDDINGS_BASE_URL || null,
            apiKey: v.EMBEDDINGS_API_KEY || null,
            model: v.EMBEDDINGS_MODEL,
            timeoutMs: v.EMBEDDINGS_TIMEOUT_MS,
          }
        : null,
    webhooks: {
      retryScheduleSeconds: parseSchedule(v.WEBHOOK_RETRY_SCHEDULE),
      timeoutMs: v.WEBHOOK_TIMEOUT_MS,
      allowPrivateNetworks: v.WEBHOOK_ALLOW_PRIVATE_NETWORKS || v.OUTBOUND_ALLOW_PRIVATE_NETWORKS,
      disableAfterHours: v.WEBHOOK_DISABLE_AFTER_HOURS,
    },
    knowledge: {
      maxUploadBytes: v.KNOWLEDGE_MAX_UPLOAD_BYTES,
      maxInflatedBytes: v.KNOWLEDGE_MAX_INFLATED_BYTES,
      maxTextChars: v.KNOWLEDGE_MAX_TEXT_CHARS,
      maxChunks: v.KNOWLEDGE_MAX_CHUNKS,
      parseThreads: v.KNOWLEDGE_PARSE_THREADS,
      parseMemoryMb: v.KNOWLEDGE_PARSE_MEMORY_MB,
      parseTimeoutMs: v.KNOWLEDGE_PARSE_TIMEOUT_MS,
    },
    outbound: {
      allowPrivateNetworks: v.OUTBOUND_ALLOW_PRIVATE_NETWORKS || v.WEBHOOK_ALLOW_PRIVATE_NETWORKS,
    },
    tracing: tracingSettings(v),
    blobs: {
      store: v.BLOB_STORE,
      dir: v.BLOB_DIR || `${dataDir}/blobs`,
      s3: v.BLOB_STORE === 's3' ? s3Settings(v) : null,
    },
    voice: {
      speechCommand: v.VOICE_SPEECH_COMMAND,
      simSetupScale: v.VOICE_SIM_SETUP_SCALE,
    },
    email: {
      listenPort: v.SMTP_LISTEN_PORT ?? null,
      listenHost: v.SMTP_LISTEN_HOST,
      hostname: v.SMTP_HOSTNAME || new URL(publicUrl).hostname,
      maxMessageBytes: v.EMAIL_MAX_MESSAGE_BYTES,
      maxAttachmentBytes: v.EMAIL_MAX_ATTACHMENT_BYTES,
      tls: v.SMTP_TLS_KEY_FILE && v.SMTP_TLS_CERT_FILE ? { keyFile: v.SMTP_TLS_KEY_FILE, certFile: v.SMTP_TLS_CERT_FILE } : null,
      relayUrl: v.EMAIL_RELAY_URL || null,
    },
    transcription:
      v.TRANSCRIPTION_BASE_URL || v.TRANSCRIPTION_API_KEY
        ? {
            baseUrl: v.TRANSCRIPTION_BASE_URL || null,
            apiKey: v.TRANSCRIPTION_API_KEY || null,
            model: v.TRANSCRIPTION_MODEL,
            timeoutMs: v.TRANSCRIPTION_TIMEOUT_MS,
          }
        : null,
  }
}
