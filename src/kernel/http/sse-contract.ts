import type { Config } from '../../config.js'

/** What a Server-Sent Events route declares (`defineRoute({ sse: … })`) and what its handler gets; served by sse.ts. */

/** What an SSE route's handler receives as `stream`. */
export interface EventStream {
  /** The stream id (`sse_…`); event ids are `<stream id>:<sequence>` (unless the route has `ownIds`). */
  readonly id: string
  /**
   * Sends one event; `data` goes out as one line of JSON. The kernel assigns the id, or with `ownIds` the
   * handler gives it (`id`: something the database can resume after; an event without one carries none).
   */
  send(event: string, data: unknown, id?: string): void
  /** `send` with `data` already serialized to one line of JSON (one event fanned out to many streams is serialized once). */
  sendJson(event: string, json: string, id?: string): void
  /** Resolves once what was sent has mostly gone out to the client: a handler sending a backlog waits for it between batches. */
  drain(): Promise<void>
  /** With `ownIds`: the request's Last-Event-ID (the client resumes after it), else null. */
  readonly lastEventId: string | null
  /** Aborted when the work must stop: the client left and did not resume within the grace period, or the server is closing. */
  readonly signal: AbortSignal
}

export interface SseOptions {
  /** Interval of the `: ping` comment (default 15 s); a function reads the config (route objects are static). */
  heartbeatMs?: number | ((config: Config) => number)
  /** How long the work goes on after the client disconnected, waiting for a resume (default 5 s). */
  resumeGraceMs?: number
  /** How long events are kept after the stream ended (default 60 s). */
  keepMs?: number
  /** Events kept per stream (default 1000; the oldest are dropped beyond it or beyond 1 MiB). */
  maxEvents?: number
  /** The event names and what each means (OpenAPI description); when given, `send` refuses any other name. */
  events?: Record<string, string>
  /**
   * The handler names the events' ids after what it reads from the database (a row id), and resumes from
   * `stream.lastEventId` itself: a resume then works on any process or node. Nothing is kept in memory, so
   * the work stops as soon as the client leaves.
   */
  ownIds?: boolean
}
export type SseRoute = true | SseOptions

export const SSE_DEFAULTS = { heartbeatMs: 15_000, resumeGraceMs: 5_000, keepMs: 60_000, maxEvents: 1000, maxBytes: 1 << 20, retryMs: 1000 } as const
/** The event the kernel sends when the handler throws after the stream started; its data is a problem. */
export const ERROR_EVENT = 'error'
