import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { Database } from '../db/database.js'
import type { Mode, Principal } from '../tenant.js'
import { flushStatements, runStatements } from './api-log.store.js'
import { ThreadWriteError } from '../db/sqlite-thread.js'
import { SqliteLogWriter } from './api-log.writer.js'
import { ulidTime } from '../ids.js'

/**
 * The API request log behind `GET /api-logs` and `GET /usage` (docs/developer-tools.md "API logs and usage").
 *
 * The request path only appends an entry to an in-memory buffer; a flush writes the buffer as multi-row
 * inserts (plus the per-day usage rollups) at least once a second, sooner once `batchSize` entries are
 * waiting, and at shutdown. So a crash loses at most the last second of entries. On PostgreSQL the flush is
 * one transaction on the pool; on a SQLite file a thread of its own writes it (api-log.writer.ts), so the
 * event loop does none of the database work.
 * While the database refuses writes the entries stay buffered and are retried each second; past
 * `maxBuffered` the oldest are dropped and counted (`dropped`, the metric svc_api_logs_dropped_total).
 *
 * What is recorded: request id, method, path (no query string), operationId, status, duration, the
 * credential (API key id, OAuth app), client address, user agent (truncated) and a problem's `code`.
 * Never a body, a query string or a header value other than the user agent.
 */
export interface ApiLogEntry {
  workspaceId: string
  mode: Mode
  /** When the response completed, epoch ms (the kernel clock). */
  at: number
  requestId: string
  method: string
  path: string
  operationId: string | null
  status: number
  durationMs: number
  keyId: string | null
  oauthAppId: string | null
  ip: string | null
  userAgent: string | null
  errorCode: string | null
  /** Already in the usage rollups (a flush that failed after writing them): the retry writes the row only. */
  counted?: boolean
}

export interface ApiLogOptions {
  enabled: boolean
  /** The longest an entry waits in memory (default 1000 ms: the loss window on a crash). */
  flushMs?: number
  /** A flush starts at once when this many entries wait (default 1000): writes stay short. */
  batchSize?: number
  /** Entries kept while the database is unavailable (default 20,000, ~6 MB); beyond, the oldest are dropped. */
  maxBuffered?: number
  /** On a SQLite file the database's thread writes (`database.thread`, the default); false: the service's connection writes, as on PostgreSQL and `:memory:`. */
  writerThread?: boolean
}

export const USER_AGENT_MAX = 256
const PATH_MAX = 1024
const PROBLEM_CODE = /"code":"([a-z0-9_]{1,64})"/

export class ApiLogRecorder {
  readonly enabled: boolean
  /** Entries dropped, oldest first, because the buffer was full while the database could not take them. */
  dropped = 0
  /** Entries written since start. */
  written = 0
  private buffer: ApiLogEntry[] = []
  private timer: NodeJS.Timeout | null = null
  private soon = false
  private failing = false
  private chain: Promise<void> = Promise.resolve()
  /** The problem `code` of an error answer, taken in onSend (the body is gone by onResponse). */
  private readonly codes = new WeakMap<FastifyRequest, string>()
  private readonly flushMs: number
  private readonly batchSize: number
  private readonly maxBuffered: number
  private readonly writer: SqliteLogWriter | null

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly log: Logger,
    opts: ApiLogOptions,
  ) {
    this.enabled = opts.enabled
    this.flushMs = opts.flushMs ?? 1000
    this.batchSize = opts.batchSize ?? 1000
    this.maxBuffered = opts.maxBuffered ?? 20_000
    this.writer = database.thread && opts.writerThread !== false ? new SqliteLogWriter(database.thread) : null
  }

  /** onSend of an answer ≥ 400: keep the problem's `code` for the entry (a problem body is a string). */
  noteProblem(request: FastifyRequest, reply: FastifyReply, payload: unknown): void {
    if (typeof payload !== 'string') return
    const type = reply.getHeader('content-type')
    if (typeof type !== 'string' || !type.startsWith('application/problem+json')) return
    // sendProblem serialises `code` before any extra member, and every string value is JSON-escaped, so
    // the first unescaped `"code":"` is the problem's own.
    const m = PROBLEM_CODE.exec(payload)
    if (m) this.codes.set(request, m[1])
  }

  /** onResponse: one entry for a request whose credential resolved to a tenant. */
  record(request: FastifyRequest, reply: FastifyReply, principal: Principal): void {
    const cfg = request.routeOptions.config
    // Public operations (the Playground) carry capability tokens in their paths and belong to no key.
    if (cfg?.public) return
    const url = request.url
    const q = url.indexOf('?')
    const ua = request.headers['user-agent']
    const status = reply.statusCode
    this.add({
      workspaceId: principal.workspaceId,
      mode: principal.mode,
      at: this.clock.now().getTime(),
      requestId: String(request.id),
      method: request.method,
      path: clip(q < 0 ? url : url.slice(0, q), PATH_MAX),
      operationId: cfg?.operationId ?? null,
      status,
      durationMs: reply.elapsedTime,
      keyId: principal.keyId ?? null,
      oauthAppId: principal.actor?.type === 'oauth_app' ? principal.actor.id : null,
      ip: request.ip ?? null,
      userAgent: typeof ua === 'string' ? clip(ua, USER_AGENT_MAX) : null,
      errorCode: status >= 400 ? (this.codes.get(request) ?? null) : null,
    })
  }

  /** Buffer one entry (tests insert controlled entries through this too). */
  add(entry: ApiLogEntry): void {
    if (!this.enabled) return
    this.buffer.push(entry)
    if (this.buffer.length > this.maxBuffered) {
      this.buffer.shift()
      this.dropped++
    }
    if (this.buffer.length >= this.batchSize && !this.soon && !this.failing) {
      this.soon = true
      setImmediate(() => void this.flush())
    } else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs)
      this.timer.unref()
    }
  }

  /** Entries waiting to be written. */
  get pending(): number {
    return this.buffer.length
  }

  /**
   * Write what is buffered now. Flushes run one at a time: one asked for while another runs waits for it,
   * then writes what arrived meanwhile. Resolves when written (or put back after a failure); never rejects.
   */
  flush(): Promise<void> {
    this.chain = this.chain.then(() => this.writeBuffered())
    return this.chain
  }

  /** Flush (shutdown: before the database closes, which ends its thread). */
  async close(): Promise<void> {
    await this.flush()
  }

  private async writeBuffered(): Promise<void> {
    this.soon = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.buffer.length === 0) return
    const batch = this.buffer
    this.buffer = []
    try {
      const statements = flushStatements(batch)
      // A writer thread that could not start (or died) leaves the work to the service's own connection.
      if (this.writer && !this.writer.failed) await this.writer.write(statements)
      else await runStatements(this.database, statements)
      this.written += batch.length
      this.failing = false
    } catch (err) {
      // The writer thread may have committed the first rows (and every entry's rollups) before failing.
      const done = err instanceof ThreadWriteError ? err.committedRows : 0
      const left = done > 0 ? batch.slice(done).map((e) => ({ ...e, counted: true })) : batch
      this.written += done
      // Back in front of what arrived meanwhile (they are older), bounded; retried on the next tick.
      if (!this.failing) this.log.warn({ err, entries: left.length }, 'could not write API logs; keeping them buffered')
      this.failing = true
      this.buffer = left.concat(this.buffer)
      const over = this.buffer.length - this.maxBuffered
      if (over > 0) {
        this.buffer.splice(0, over)
        this.dropped += over
      }
      if (!this.timer) {
        this.timer = setTimeout(() => void this.flush(), this.flushMs)
        this.timer.unref()
      }
    }
  }
}

/** At most `max` characters, without U+0000 (PostgreSQL TEXT cannot hold it). */
function clip(s: string, max: number): string {
  const cut = s.length > max ? s.slice(0, max) : s
  return cut.includes('\u0000') ? cut.replace(/\u0000/g, '') : cut
}

// ---- ids and latency buckets, shared with the readers (the developer module, retention) ----

/**
 * The smallest id of an entry made at or after `at` (ISO time or epoch ms): an id has the entry's
 * millisecond as its ULID time, so `created_at >= t` is `id >= apiLogIdBound(t)` and `created_at < t` is
 * `id < apiLogIdBound(t)`, exactly, at millisecond precision.
 */
export function apiLogIdBound(at: string | number): string {
  return `alog_${ulidTime(typeof at === 'number' ? at : Date.parse(at))}`
}

/** Latency histogram buckets 5 % wide: bucket b holds durations in (1.05^(b-1), 1.05^b] ms. */
const GROWTH = 1.05
const LOG_GROWTH = Math.log(GROWTH)
/** 1.05^-48 ≈ 0.096 ms: everything faster shares the first bucket. */
export const MIN_BUCKET = -48
/** 1.05^400 ≈ 3 × 10^8 ms: nothing real is slower. */
export const MAX_BUCKET = 400

export function latencyBucket(ms: number): number {
  if (!(ms > 0)) return MIN_BUCKET
  // `+ 0` turns the -0 of ceil(-ε) into 0.
  const b = Math.ceil(Math.log(ms) / LOG_GROWTH - 1e-9) + 0
  return b < MIN_BUCKET ? MIN_BUCKET : b > MAX_BUCKET ? MAX_BUCKET : b
}

/** A bucket's upper edge in ms (what a percentile read from the histogram reports). */
export function bucketUpperMs(b: number): number {
  return GROWTH ** b
}
