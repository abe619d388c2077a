import type { Logger } from 'pino'
import type { Config } from '../config.js'
import type { AiEngine } from './ai/ai.types.js'
import type { AuditChain } from './audit/audit-chain.js'
import type { BlobStore } from './blobs/blobs.js'
import type { EmbeddingsEngine } from './ai/embeddings.js'
import type { Clock } from './clock.js'
import type { Database, Db, Tx } from './db/database.js'
import type { Dependencies } from './dependencies.js'
import type { EventFeed } from './events/event-feed.js'
import type { EventBus } from './events/events.js'
import type { SecretBox } from './crypto/secret-box.js'
import type { ApiLogRecorder } from './http/api-log.js'
import type { ListSpec, PageResult } from './http/pagination.js'
import type { RequestCounter } from './http/request-counter.js'
import type { JobRunner } from './jobs/runner.js'
import type { ModuleDefinition } from './module.js'
import type { ToolRegistry } from './tools/tools.js'

/** What every module service receives: infrastructure only, no domain. */
export interface Kernel {
  config: Config
  database: Database
  db: Db
  clock: Clock
  log: Logger
  events: EventBus
  /** The live feed of committed events and ephemeral signals to the event streams connected to this process. */
  feed: EventFeed
  jobs: JobRunner
  /** The text-generation engine of AI_PROVIDER, built once (modules never build their own). */
  ai: AiEngine
  /** The OpenAI-compatible embeddings endpoint of EMBEDDINGS_*, or null when none is configured. */
  embeddings: EmbeddingsEngine | null
  /** The built-in tools modules register (search_knowledge, handoff_to_human, …) for bots and agents to call. */
  tools: ToolRegistry
  /** Per-day request counts behind usage reports (buffered; flush before reading). */
  requests: RequestCounter
  /** The API request log (API_LOGS): buffered, written at least once a second; `flush()` before reading. */
  apiLogs: ApiLogRecorder
  /** Outside services the API runs without, degraded (Redis): reported by /readyz and GET /health. */
  dependencies: Dependencies
  /** Every module of this build, including their health checks and usage counters. */
  modules: readonly ModuleDefinition[]
  /** Seals credentials the service must use later (webhook signing secrets, CRM tokens): AES-256-GCM. */
  secrets: SecretBox
  /**
   * A 256-bit key of the server secret for one purpose (HKDF): what the service signs and verifies itself,
   * e.g. voice client tokens. Rotating SERVER_SECRET changes it (tokens made before stop verifying).
   */
  deriveKey(purpose: string): Buffer
  /** The audit chain: keyed links, sealing, verification and the checkpoints kept outside the database. */
  audit: AuditChain
  /** Files the service keeps (call recordings): a local directory (BLOB_DIR), atomic puts, ranged reads. */
  blobs: BlobStore
  /** Every list goes through this: signed cursors bound to list, filters and tenant; limit+1; the envelope. */
  paginate<R, T>(spec: ListSpec<R, T>): Promise<PageResult<T>>
  /**
   * Run `fn` in one transaction; after it commits, wake the job runner for what it enqueued. `owner` is
   * the principal (or tenant) the service was handed — for an idempotent request the key commits in this
   * transaction with `fn`'s result as its response — or null for work no request asked for.
   */
  transaction<T>(owner: object | null, fn: (tx: Tx) => Promise<T>): Promise<T>
}
