// Every environment variable the service reads, declared once: its type and limits (checked at start by
// src/config-env.ts), its default, and the README's configuration table (scripts/write-config-table.ts writes
// it; test/config-schema.test.ts keeps the README equal). src/config.ts turns the checked values into a Config.
// Defaults that depend on another variable (PUBLIC_URL on PORT) are computed there; `x-default` documents them.
import { Type, type Static, type TSchema } from 'typebox'

/** README annotations: `x-row` joins a variable to an earlier one's row; `x-secret` keeps its value out of messages. */
interface Meta {
  /** The README's default column when the schema has no plain default (computed, or said in words). */
  default?: string
  /** How an error names what was expected, when the schema alone cannot say it (patterns). */
  expected?: string
  /** Shares the README row of this earlier variable (whose description is the row's). */
  row?: string
  /** Credentials (or URLs that may carry them): an error gives the value's length, never the value. */
  secret?: true
}

const meta = (m: Meta) => Object.fromEntries(Object.entries(m).map(([k, v]) => [`x-${k}`, v]))

/** Marks a schema as always holding a value (it has a default), for EnvValues below. */
type Defaulted<S, D> = D extends undefined ? S : S & { default: unknown }

/** A whole number (≥ 0 unless said). */
function int<D extends number | undefined = undefined>(o: { default?: D; min?: number; max?: number }, description: string, m: Meta = {}) {
  const schema = Type.Integer({ minimum: o.min ?? 0, ...(o.max !== undefined && { maximum: o.max }), ...(o.default !== undefined && { default: o.default }), description, ...meta(m) })
  return schema as Defaulted<typeof schema, D>
}
function num(o: { default: number; min?: number }, description: string, m: Meta = {}) {
  return Type.Number({ minimum: o.min ?? 0, default: o.default, description, ...meta(m) }) as Defaulted<ReturnType<typeof Type.Number>, number>
}
/** on/off, true/false, yes/no, 1/0 (any case). */
function flag(fallback: boolean, description: string, m: Meta = {}) {
  return Type.Boolean({ default: fallback, description, ...meta(m) }) as Defaulted<ReturnType<typeof Type.Boolean>, boolean>
}
/** One of the values (any case). */
function choice<const T extends string[]>(values: T, fallback: T[number], description: string, m: Meta = {}) {
  const schema = Type.Union(values.map((v) => Type.Literal(v)) as { [K in keyof T]: ReturnType<typeof Type.Literal<T[K]>> }, { default: fallback, description, ...meta(m) })
  return schema as Defaulted<typeof schema, string>
}
function text<D extends string | undefined = undefined>(o: { default?: D; pattern?: string }, description: string, m: Meta = {}) {
  const schema = Type.String({ ...(o.default !== undefined && { default: o.default }), ...(o.pattern && { pattern: o.pattern }), description, ...meta(m) })
  return schema as Defaulted<typeof schema, D>
}

const HTTP_URL = { pattern: '^https?://[^\\s]+$' }
const URL_EXPECTED = { expected: 'an http:// or https:// URL' }
const MS = (fallback: number, description: string, m: Meta = {}, min = 0) => int({ default: fallback, min }, description, m)

export const ENV_SCHEMA = Type.Object({
  HOST: text({ default: '0.0.0.0' }, 'listen address'),
  PORT: int({ default: 8080, max: 65535 }, 'listen port; live base URL `/v2`, sandbox `/sandbox/v2`'),
  PUBLIC_URL: text(HTTP_URL, 'how clients reach this service (links, docs, problem `type`s)', { default: '`http://localhost:$PORT`', ...URL_EXPECTED }),
  DOCS_BASE_URL: text(HTTP_URL, 'where the API reference pages are linked from (problem `type`s, errors)', { default: '`$PUBLIC_URL/v2/api-docs`', ...URL_EXPECTED }),
  DATABASE_URL: text({ default: 'sqlite:./data/svc.sqlite', pattern: '^(sqlite:|postgres(ql)?://)' }, '`sqlite:<path>`, `sqlite::memory:` or `postgres://…`', {
    expected: 'sqlite:<path>, sqlite::memory: or postgres://…',
    secret: true,
  }),
  DATABASE_SCHEMA: text({ pattern: '^[A-Za-z_][A-Za-z0-9_$]*$' }, 'PostgreSQL schema to use (created if missing)', { expected: 'a PostgreSQL identifier (letters, digits, _)' }),
  DATABASE_GROUP_COMMIT: flag(false, '`on` or `off` (SQLite): transactions that queue for the connection share one COMMIT, each answered only after it (docs/operations.md "Group commit")', {
    default: '`off`',
  }),
  DATABASE_CHECKPOINT_THREAD: flag(
    true,
    '`on` or `off` (SQLite): WAL checkpoints run on a thread of their own once the process writes, not inside a request\'s COMMIT (docs/operations.md "Checkpoints (SQLite)")',
    {
      default: '`on`',
    },
  ),
  REDIS_URL: text(
    { pattern: '^rediss?://' },
    'when set, rate-limit counters live in Redis and are shared by all nodes; while Redis is unreachable each process counts its own (one warning per outage; `/readyz` and `GET /v2/health` say `degraded`)',
    { expected: 'a redis:// or rediss:// URL', secret: true },
  ),
  REDIS_KEY_PREFIX: text(
    { pattern: '^[A-Za-z0-9_.:-]{1,64}$' },
    'put before every key and pub/sub channel this service uses in Redis (e.g. `prod:`), so several deployments sharing one Redis (staging beside production) keep their rate-limit counters and live events apart; unset = none',
    { expected: 'up to 64 letters, digits, _ . : -' },
  ),
  REDIS_CONNECT_TIMEOUT_MS: MS(1000, "the longest a connection attempt, and a request's rate-limit count, waits for Redis before counting in the process"),
  REDIS_COMMAND_TIMEOUT_MS: MS(500, '', { row: 'REDIS_CONNECT_TIMEOUT_MS' }),
  RATE_LIMIT_PER_MINUTE: int({ default: 600 }, 'requests per minute per API key (and per client address for requests without a valid key)'),
  TRUST_PROXY: text(
    {},
    "which peers may set the client address with `X-Forwarded-For`: `false` (the TCP peer is the client), `true` (any), a hop count, or comma-separated addresses/CIDRs (`loopback`, `uniquelocal` allowed). Set it behind a reverse proxy, or every client shares the proxy's anonymous rate-limit bucket (docs/operations.md)",
    { default: '`false`' },
  ),
  HTTP_HEADERS_TIMEOUT_MS: MS(10_000, "a request's header section must arrive within this; then the connection is closed", {}, 1),
  HTTP_REQUEST_TIMEOUT_MS: MS(120_000, 'the whole request, body included, must arrive within this; then 408 and the connection is closed (raise it for large uploads over slow links)', {}, 1),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: MS(72_000, "an idle keep-alive connection is closed after this (keep it above a load balancer's idle timeout)"),
  HTTP_MAX_CONNECTIONS_PER_IP: int({ default: 100 }, 'open connections one client address may hold; one more is closed at once (`0`: no cap; trusted proxies are exempt)'),
  HTTP_MAX_IN_FLIGHT: int(
    { default: 512 },
    'requests one process handles at once (event streams and probes not counted); one more is answered 503 with `Retry-After: 1` at once instead of queueing (`0`: no bound; docs/operations.md)',
  ),
  DATABASE_MAX_WAITING: int({ default: 100 }, 'queries waiting for a PostgreSQL pool connection; above it new requests get 503 with `Retry-After: 1` (`0`: no bound)'),
  REPLAY_RATE_LIMIT_PER_MINUTE: int({ default: 60 }, 'webhook delivery replays per minute per API key'),
  BODY_LIMIT_BYTES: int({ default: 1048576 }, 'request bodies above this get 413'),
  IDEMPOTENCY_RETENTION_HOURS: int({ default: 24 }, 'how long an `Idempotency-Key` and its response are kept'),
  V1_SUNSET: text(
    { default: '2027-06-30T00:00:00Z', pattern: '^\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$' },
    'when the deprecated `/api/v1` endpoints stop working (ISO 8601); after it they answer 410 (docs/migration-v1.md)',
    { expected: 'an ISO 8601 date' },
  ),
  SVC_ROLE: choice(['api', 'worker', 'all'], 'all', '`api`, `worker` or `all` (also `--role`)'),
  WEB_CONCURRENCY: text(
    { pattern: '^([Aa][Uu][Tt][Oo]|0*[1-9][0-9]*)$' },
    'HTTP processes on this box sharing the port (`auto`: one per core); rate limits and metrics stay one per box (docs/operations.md)',
    { default: '`1`', expected: 'a whole number from 1 to 256, or auto' },
  ),
  SVC_PROCESS_SLOT: int({ default: 0 }, 'set by the `WEB_CONCURRENCY` primary for each of its processes (0 runs the jobs); not for operators'),
  JOB_CONCURRENCY: int({ default: 64 }, 'jobs one worker runs at once (deliveries wait on the network, so many at once)'),
  JOB_POLL_INTERVAL_MS: MS(250, 'idle poll interval of the job runner'),
  JOB_LEASE_SECONDS: int({ default: 60 }, 'a job claimed by a worker that died is taken over after this'),
  SHUTDOWN_TIMEOUT_MS: MS(10_000, 'how long SIGTERM waits for requests and jobs'),
  SSE_HEARTBEAT_MS: MS(15_000, 'interval of the `: ping` comment on event streams (the live event stream, the streamed agent dry-run)'),
  EVENT_FEED_BUS: choice(
    ['auto', 'postgres', 'redis', 'none'],
    'auto',
    "how nodes wake each other's live streams and share presence: `postgres` (LISTEN/NOTIFY), `redis` (pub/sub), `none` (polling only); `auto` = postgres on PostgreSQL, redis on SQLite with `REDIS_URL`, else none ([docs/live.md](docs/live.md))",
  ),
  EVENT_FEED_POLL_MS: MS(250, 'how often each process reads new events while streams are connected (a commit wakes it sooner)', {}, 10),
  EVENT_FEED_LOOKBACK_MS: MS(2000, 'how far back each read looks for events committed late (a slow transaction); a resume looks back as far'),
  EVENT_STREAM_RECHECK_MS: MS(30_000, 'how often a connected stream re-checks its credential (revoked key, removed or demoted member)', {}, 100),
  LOG_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', 'pino level (`silent` … `trace`)'),
  OTEL_EXPORTER_OTLP_ENDPOINT: text(
    HTTP_URL,
    'OpenTelemetry traces (docs/operations.md "Tracing"): the OTLP/HTTP collector, spans posted to `<endpoint>/v1/traces`; neither this nor the next set = tracing off, its SDK never loaded',
    URL_EXPECTED,
  ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: text(HTTP_URL, 'the exact URL spans are posted to (wins over the one above)', URL_EXPECTED),
  OTEL_EXPORTER_OTLP_HEADERS: text({}, "headers of every export, `key=value,key2=value2` (values URL-encoded), e.g. a collector's token; the `TRACES_` one wins per key", { secret: true }),
  OTEL_EXPORTER_OTLP_TRACES_HEADERS: text({}, '', { row: 'OTEL_EXPORTER_OTLP_HEADERS', secret: true }),
  OTEL_EXPORTER_OTLP_PROTOCOL: choice(['http/json', 'http/protobuf'], 'http/json', "the export's encoding over OTLP/HTTP: `http/json` or `http/protobuf` (`grpc` is not supported)"),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: text({ pattern: '^http/(json|protobuf)$' }, '', { row: 'OTEL_EXPORTER_OTLP_PROTOCOL', expected: 'http/json or http/protobuf' }),
  OTEL_EXPORTER_OTLP_TIMEOUT: MS(10_000, 'the longest one export waits for the collector', {}, 1),
  OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: int({ min: 1 }, '', { row: 'OTEL_EXPORTER_OTLP_TIMEOUT' }),
  OTEL_SERVICE_NAME: text({ default: 'svc' }, 'the `service.name` of every span'),
  OTEL_TRACES_SAMPLER: choice(
    ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'],
    'parentbased_always_on',
    'which traces are kept (the standard samplers); `OTEL_TRACES_SAMPLER_ARG` is the ratio (0 to 1) of the `traceidratio` ones',
  ),
  OTEL_TRACES_SAMPLER_ARG: num({ default: 1 }, '', { row: 'OTEL_TRACES_SAMPLER' }),
  OTEL_SDK_DISABLED: flag(false, '`true`: tracing off even with an endpoint set'),
  METRICS_TOKEN: text({}, 'when set, `GET /metrics` requires `Authorization: Bearer <token>`; when unset it answers loopback clients only', { secret: true }),
  METRICS_PUBLIC: flag(false, 'serve `GET /metrics` without a token to any address'),
  API_LOGS: flag(true, '`on` or `off`: record every API request for `GET /api-logs` and `GET /usage` (buffered, written at least once a second; see docs/developer-tools.md "API logs and usage")', {
    default: '`on`',
  }),
  DASHBOARD_DIR: text({ default: 'dashboard/dist' }, 'where the built dashboard is (relative to the working directory); `npm start` and `npm run build` build it there'),
  SERVER_SECRET: text({}, '≥ 32 characters; keys signed cursors and secrets at rest. Unset: generated once into `DATA_DIR/server-secret` (0600). Set the same value on every node', {
    default: 'generated',
    secret: true,
  }),
  SERVER_SECRET_PREVIOUS: text({}, 'comma-separated earlier server secrets, still accepted to open sealed credentials during a rotation (then run `svc secrets reseal`)', { secret: true }),
  DATA_DIR: text({}, 'local files: generated server secret, first-start keys', { default: 'folder of the SQLite file, else `./data`' }),
  IDEMPOTENCY_LOCK_SECONDS: int({ default: 60 }, 'an `Idempotency-Key` claim whose request has not finished (and committed nothing) is taken over after this'),
  AI_PROVIDER: choice(['builtin', 'openai'], 'builtin', '`builtin` (offline, deterministic) or `openai` (any OpenAI-compatible server)'),
  AI_BASE_URL: text(HTTP_URL, 'the `openai` provider', URL_EXPECTED),
  AI_API_KEY: text({}, '', { row: 'AI_BASE_URL', secret: true }),
  AI_MODEL: text({}, '', { row: 'AI_BASE_URL', default: '`gpt-4o-mini`' }),
  AI_TIMEOUT_MS: MS(10_000, '', { row: 'AI_BASE_URL' }),
  EMBEDDINGS_BASE_URL: text(HTTP_URL, 'any OpenAI-compatible `/embeddings` endpoint: knowledge search re-ranks hybrid (keyword + vector); none set = keyword ranking only', URL_EXPECTED),
  EMBEDDINGS_API_KEY: text({}, '', { row: 'EMBEDDINGS_BASE_URL', secret: true }),
  EMBEDDINGS_MODEL: text({ default: 'text-embedding-3-small' }, '', { row: 'EMBEDDINGS_BASE_URL' }),
  EMBEDDINGS_TIMEOUT_MS: MS(10_000, '', { row: 'EMBEDDINGS_BASE_URL' }),
  WEBHOOK_RETRY_SCHEDULE: text({ default: '5,300,1800,7200,18000,36000,36000', pattern: '^\\s*\\d+(\\.\\d+)?(\\s*,\\s*\\d+(\\.\\d+)?)*\\s*$' }, 'seconds between delivery attempts', {
    expected: 'comma-separated seconds',
  }),
  WEBHOOK_TIMEOUT_MS: MS(15_000, 'a delivery attempt must answer 2xx within this'),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag(false, 'allow endpoints on loopback/private addresses (tests, single-box installs); link-local and cloud metadata addresses are refused regardless'),
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: flag(false, 'the same for every fetch made for a user (webhooks and knowledge crawls); either setting turns it on'),
  WEBHOOK_DISABLE_AFTER_HOURS: int({ default: 120 }, 'an endpoint failing continuously this long is disabled'),
  KNOWLEDGE_MAX_UPLOAD_BYTES: int({ default: 20971520 }, 'largest knowledge document accepted (uploaded file or JSON text); beyond it 413'),
  KNOWLEDGE_MAX_INFLATED_BYTES: int(
    { default: 67108864 },
    'most a ZIP-based document (DOCX) may unpack to, checked while unpacking; beyond it the document ends `failed` (docs/knowledge.md "Limits")',
  ),
  KNOWLEDGE_MAX_TEXT_CHARS: int({ default: 20000000 }, 'most text characters and chunks one document may make; beyond them it ends `failed`'),
  KNOWLEDGE_MAX_CHUNKS: int({ default: 50000 }, '', { row: 'KNOWLEDGE_MAX_TEXT_CHARS' }),
  KNOWLEDGE_PARSE_THREADS: int(
    { default: 2 },
    "worker threads that parse documents off the event loop, each one's heap limit (past it the document fails, the process goes on) and the longest a parse may take",
  ),
  KNOWLEDGE_PARSE_MEMORY_MB: int({ default: 1024 }, '', { row: 'KNOWLEDGE_PARSE_THREADS' }),
  KNOWLEDGE_PARSE_TIMEOUT_MS: MS(300_000, '', { row: 'KNOWLEDGE_PARSE_THREADS' }),
  BLOB_STORE: choice(
    ['local', 's3'],
    'local',
    '`local` (the directory `BLOB_DIR`) or `s3` (a bucket of any S3-compatible store: `S3_*` below) for the files the service keeps (recordings, exports, SDK archives, attachments; docs/operations.md "Blob storage")',
  ),
  BLOB_DIR: text({}, 'files the service keeps with `BLOB_STORE=local`; API and worker nodes must see the same directory', { default: '`DATA_DIR/blobs`' }),
  S3_BUCKET: text({}, 'the bucket (required with `BLOB_STORE=s3`)'),
  S3_REGION: text({ default: 'us-east-1' }, '', { row: 'S3_BUCKET' }),
  S3_ENDPOINT: text(HTTP_URL, 'an S3-compatible server (MinIO, Ceph, Cloudflare R2, …); unset = AWS S3 of `S3_REGION`', URL_EXPECTED),
  S3_FORCE_PATH_STYLE: flag(false, 'address objects as `endpoint/bucket/key` (most self-hosted servers need it)'),
  S3_ACCESS_KEY_ID: text({}, "explicit credentials; unset = the AWS SDK's default chain (`AWS_ACCESS_KEY_ID`…, profiles, instance roles)", { secret: true }),
  S3_SECRET_ACCESS_KEY: text({}, '', { row: 'S3_ACCESS_KEY_ID', secret: true }),
  S3_PREFIX: text({}, 'put before every object key, e.g. `svc/` to share a bucket'),
  VOICE_SPEECH_COMMAND: text({ default: 'espeak-ng' }, 'the speech synthesiser of simulated calls, run as a separate program; missing = recordings of simulated calls `unavailable`'),
  VOICE_SIM_SETUP_SCALE: num({ default: 1 }, "multiplies the simulated carrier's dialling and ringing times; `0` answers at once (demos, tests)"),
  SMTP_LISTEN_PORT: int({ max: 65535 }, 'the email channel\'s own inbound SMTP listener (docs/channels.md "Email"); unset = off'),
  SMTP_LISTEN_HOST: text({ default: '0.0.0.0' }, 'the address that listener binds'),
  SMTP_HOSTNAME: text({}, 'the name the SMTP listener greets with, and the domain of the Message-IDs the service makes', { default: 'host of `PUBLIC_URL`' }),
  EMAIL_MAX_MESSAGE_BYTES: int({ default: 26214400 }, 'larger inbound mail is refused while it is read (SMTP 552, 413 on webhooks)'),
  EMAIL_MAX_ATTACHMENT_BYTES: int({ default: 10485760 }, 'larger attachments are named in the message, not kept'),
  SMTP_TLS_KEY_FILE: text({}, 'PEM key and certificate: STARTTLS is offered on the SMTP listener when both are set'),
  SMTP_TLS_CERT_FILE: text({}, '', { row: 'SMTP_TLS_KEY_FILE' }),
  EMAIL_RELAY_URL: text({ pattern: '^smtps?://' }, 'the default outbound relay of email channels without their own (`smtp://user:pass@host:587`, `smtps://…:465`)', {
    expected: 'an smtp:// or smtps:// URL',
    secret: true,
  }),
  TRANSCRIPTION_BASE_URL: text(
    HTTP_URL,
    "any OpenAI-compatible `/audio/transcriptions` endpoint (only a key set: OpenAI's): transcribes carrier (Twilio) recordings; none set = not transcribed",
    URL_EXPECTED,
  ),
  TRANSCRIPTION_API_KEY: text({}, '', { row: 'TRANSCRIPTION_BASE_URL', secret: true }),
  TRANSCRIPTION_MODEL: text({ default: 'whisper-1' }, '', { row: 'TRANSCRIPTION_BASE_URL' }),
  TRANSCRIPTION_TIMEOUT_MS: MS(60_000, '', { row: 'TRANSCRIPTION_BASE_URL' }),
})

export type EnvName = keyof typeof ENV_SCHEMA.properties
/** Each variable's checked value: its default when unset (undefined where it has none). */
export type EnvValues = { [K in EnvName]: Static<(typeof ENV_SCHEMA.properties)[K]> | (HasDefault<(typeof ENV_SCHEMA.properties)[K]> extends true ? never : undefined) }
type HasDefault<S> = S extends { default: unknown } ? true : false

/** Names read by the official clients and the build, not by the server: never reported as unknown. */
export const ENV_READ_ELSEWHERE: readonly string[] = ['SVC_API_KEY', 'SVC_BASE_URL', 'SVC_BUILD_DIR', 'SVC_TEST_BUILD', 'SVC_TEST_SCRIPTS', 'SVC_ANNOUNCED_SCRIPT']

export const envSchemaOf = (name: EnvName): TSchema => ENV_SCHEMA.properties[name]
