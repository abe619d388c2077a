import { PassThrough } from 'node:stream'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { AppError, defineErrors, errorSpec, type ErrorSpec } from '../errors.js'
import { randomToken } from '../ids.js'
import { problemTypeUri, toAppError } from './problem.js'
import { ERROR_EVENT, SSE_DEFAULTS, type EventStream, type SseOptions, type SseRoute } from './sse-contract.js'

/**
 * Server-Sent Events routes (`defineRoute({ sse: … })`): the handler gets `stream`, sends events, and
 * returns when its work is done. The response starts at the first event, so an error thrown before it is
 * an ordinary problem+json answer; one thrown after it is a final `error` event. Events are kept in this
 * process's memory for a while so a client can resume with `Last-Event-ID` (docs/api-conventions.md,
 * "Event streams"); nothing is persisted, which is why a resume must reach the same process.
 */

export const SSE_ERRORS = defineErrors('kernel', {
  // Last-Event-ID names a stream this process does not keep (unknown, expired, evicted, another request's or workspace's).
  stream_not_found: { status: 404, title: 'Event stream not found' },
  // The client left an event stream and did not resume within the grace period, so its work was stopped.
  stream_abandoned: { status: 410, title: 'Event stream abandoned' },
})

declare module '../errors.js' {
  interface ErrorCodes extends Record<keyof typeof SSE_ERRORS, ErrorSpec> {}
}

// The route-facing types (the handler's `stream`, the route's `sse` options) are in sse-contract.ts.
export { ERROR_EVENT, SSE_DEFAULTS, type EventStream, type SseOptions, type SseRoute } from './sse-contract.js'

/** Below this much buffered output a stream counts as drained (`drain()`). */
const DRAINED_BYTES = 64 * 1024
const EVENT_NAME = /^[A-Za-z0-9._-]{1,64}$/
const LAST_EVENT_ID = /^(sse_[A-Za-z0-9_-]{1,64}):(\d{1,9})$/
/** A handler-named event id: what EventSource sends back verbatim (no line breaks), short enough for a header. */
const EVENT_ID = /^[\x21-\x7e]{1,128}$/

type Resolved = Required<Omit<SseOptions, 'heartbeatMs' | 'events' | 'ownIds'>> & { heartbeatMs: number; events?: Record<string, string>; ownIds: boolean }
interface Connection {
  out: PassThrough
  reply: FastifyReply
  heartbeat: NodeJS.Timeout
}

class Stream {
  readonly controller = new AbortController()
  readonly kept: { seq: number; frame: string }[] = []
  keptBytes = 0
  /** The sequence of the next event (the first is 1). */
  next = 1
  started = false
  finished = false
  conn: Connection | null = null
  grace: NodeJS.Timeout | null = null
  expiry: NodeJS.Timeout | null = null
  work: Promise<unknown> = Promise.resolve()
  /** The whole stream as sent, for an Idempotency-Key to replay (null: not recorded, or over the size kept). */
  transcript: string[] | null = null
  transcriptBytes = 0
  /** Told once the work settled: the whole stream text when it ended without an `error` event, else null. */
  record: ((text: string | null) => void) | null = null
  constructor(
    readonly id: string,
    readonly owner: string,
    readonly method: string,
    readonly path: string,
    readonly opts: Resolved,
  ) {}
}

/** The first bytes of every response of a stream: reconnect well within the grace period (they also flush the headers). */
const retryLine = (s: Stream) => `retry: ${s.opts.ownIds ? SSE_DEFAULTS.retryMs : Math.min(SSE_DEFAULTS.retryMs, Math.floor(s.opts.resumeGraceMs / 2))}\n\n`

const pathOf = (request: FastifyRequest) => (request.raw.url ?? request.url).split('?')[0].replace(/(.)\/+$/, '$1')
const ownerOf = (request: FastifyRequest) => (request.principal ? `${request.principal.workspaceId}:${request.principal.mode}` : `public:${request.routeOptions.config.mode ?? ''}`)

function problemBody(request: FastifyRequest, err: AppError): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: problemTypeUri(err.code),
    title: errorSpec(err.code).title,
    status: err.status,
    detail: err.detail,
    instance: pathOf(request),
    code: err.code,
    request_id: request.id,
  }
  for (const [k, v] of Object.entries(err.extra)) if (k !== 'headers' && v !== undefined) body[k] = v
  return body
}

/** The event streams of one HTTP server, in memory. */
export class EventStreams {
  /** Resumable streams by id, until `keepMs` after they end. */
  private readonly streams = new Map<string, Stream>()
  /** Streams whose work is running, resumable or not yet. */
  private readonly running = new Set<Stream>()
  private closing = false

  constructor(
    private readonly config: Config,
    private readonly log: Logger,
  ) {}

  /**
   * Serves an SSE request: a resume when it carries Last-Event-ID, else a new stream running `work`.
   * Settles when this request's response has ended (Fastify must not send anything once the handler
   * returns, and a streaming reply is not `sent` until it ends); rejects with what `work` threw before
   * its first event, for the usual problem answer.
   */
  async serve(request: FastifyRequest, reply: FastifyReply, route: SseRoute, work: (stream: EventStream) => unknown, record?: (text: string | null) => void): Promise<void> {
    const header = request.headers['last-event-id']
    const lastEventId = header === undefined ? null : Array.isArray(header) ? header[0] : header
    const opts = this.resolve(route)
    if (lastEventId !== null && !opts.ownIds) return this.resume(request, reply, lastEventId)
    const s = new Stream(`sse_${randomToken(16)}`, ownerOf(request), request.method, pathOf(request), opts)
    if (record) {
      s.transcript = [retryLine(s)]
      s.record = record
    }
    let closed: Promise<void> | undefined
    let started!: () => void
    const startedNow = new Promise<void>((resolve) => (started = resolve))
    const handle: EventStream = {
      id: s.id,
      signal: s.controller.signal,
      lastEventId: opts.ownIds ? lastEventId : null,
      send: (event, data, id) => handle.sendJson(event, JSON.stringify(data ?? null), id),
      drain: () => {
        const out = s.conn?.out
        if (!out || out.writableLength < DRAINED_BYTES) return Promise.resolve()
        return new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done)
            out.off('close', done)
            s.controller.signal.removeEventListener('abort', done)
            resolve()
          }
          out.on('drain', done)
          out.on('close', done)
          s.controller.signal.addEventListener('abort', done)
        })
      },
      sendJson: (event, json, id) => {
        if (id !== undefined && (!opts.ownIds || !EVENT_ID.test(id))) throw new Error(`SSE event id ${JSON.stringify(id)}: only routes with ownIds name ids, printable and at most 128 characters`)
        if (!EVENT_NAME.test(event)) throw new Error(`SSE event name ${JSON.stringify(event)} must match ${EVENT_NAME}`)
        if (opts.events && !(event in opts.events) && event !== ERROR_EVENT) throw new Error(`SSE event ${event} is not declared in the route's sse.events`)
        if (s.finished) return
        if (!s.started) {
          closed = this.start(s, request, reply, !opts.ownIds)
          started()
        }
        this.emit(s, event, json, id)
      },
    }
    // Before the first event the client has no id to resume with: a lost connection stops the work now.
    reply.raw.once('close', () => {
      if (!s.started && !reply.raw.writableFinished) s.controller.abort(new AppError('stream_abandoned', 'The client disconnected before the first event.'))
    })
    this.running.add(s)
    s.work = Promise.resolve().then(() => work(handle))
    const ended = s.work.then(
      () => this.end(s, request, false),
      (err: unknown) => this.end(s, request, true, err),
    )
    await Promise.race([startedNow, s.work])
    if (!closed) {
      // The work ended without an event: an empty stream, with nothing to resume.
      await ended
      closed = this.start(s, request, reply, false)
      this.detach(s, false)
      this.settle(s, true)
    }
    await closed
  }

  /** Aborts every running stream (the server is closing), lets handlers write their last event, then ends every response. */
  async close(waitMs = 2000): Promise<void> {
    this.closing = true
    const running = [...this.running]
    for (const s of running) s.controller.abort(new AppError('service_unavailable', 'The server is shutting down; send the request again.', { headers: { 'Retry-After': '1' } }))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([Promise.allSettled(running.map((s) => s.work)), new Promise((resolve) => (timer = setTimeout(resolve, waitMs)))])
    clearTimeout(timer)
    for (const s of this.streams.values()) {
      s.finished = true
      this.detach(s, true)
      if (s.grace) clearTimeout(s.grace)
      if (s.expiry) clearTimeout(s.expiry)
    }
    this.streams.clear()
    this.running.clear()
  }

  private resolve(route: SseRoute): Resolved {
    const o: SseOptions = route === true ? {} : route
    const heartbeat = typeof o.heartbeatMs === 'function' ? o.heartbeatMs(this.config) : o.heartbeatMs
    return {
      heartbeatMs: heartbeat ?? SSE_DEFAULTS.heartbeatMs,
      resumeGraceMs: o.resumeGraceMs ?? SSE_DEFAULTS.resumeGraceMs,
      keepMs: o.keepMs ?? SSE_DEFAULTS.keepMs,
      maxEvents: o.maxEvents ?? SSE_DEFAULTS.maxEvents,
      events: o.events,
      ownIds: o.ownIds === true,
    }
  }

  private async resume(request: FastifyRequest, reply: FastifyReply, lastEventId: string): Promise<void> {
    const m = LAST_EVENT_ID.exec(lastEventId.trim())
    if (!m) {
      throw new AppError('validation_failed', 'Last-Event-ID must be the id of an event of this stream (`sse_…:<n>`).', {
        errors: [{ pointer: '/headers/last-event-id', detail: 'must match sse_<id>:<n>' }],
      })
    }
    const [, id, n] = m
    const after = Number(n)
    const s = this.streams.get(id)
    if (!s || s.owner !== ownerOf(request) || s.method !== request.method || s.path !== pathOf(request)) {
      throw new AppError(
        'stream_not_found',
        `No event stream ${id} is kept for ${request.method} ${pathOf(request)}: events are kept briefly after a stream ends, by the process that served it. Send the request without Last-Event-ID to start again.`,
      )
    }
    const last = s.next - 1
    const oldest = s.kept.length > 0 ? s.kept[0].seq : s.next
    if (after > last || after < oldest - 1) {
      throw new AppError(
        'stream_not_found',
        after > last ? `Stream ${id} has no event ${after} (its last is ${last}).` : `The events of stream ${id} after ${after} are no longer kept (the oldest kept is ${oldest}).`,
      )
    }
    if (s.finished && after === last) {
      // Nothing missed and nothing more to come: 204 tells EventSource clients to stop reconnecting.
      reply.code(204).send()
      return
    }
    if (s.grace) {
      clearTimeout(s.grace)
      s.grace = null
    }
    // The newest connection wins: a second client resuming the same stream takes it over.
    this.detach(s, false)
    const closed = this.attach(s, request, reply)
    for (const e of s.kept) if (e.seq > after) this.write(s, e.frame)
    if (s.finished) this.detach(s, false)
    await closed
  }

  /** The first event: headers go out, the stream becomes resumable. Resolves when the response ends. */
  private start(s: Stream, request: FastifyRequest, reply: FastifyReply, resumable: boolean): Promise<void> {
    s.started = true
    if (resumable && !this.closing) this.streams.set(s.id, s)
    return this.attach(s, request, reply)
  }

  private attach(s: Stream, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const out = new PassThrough()
    const heartbeat = setInterval(() => out.write(': ping\n\n'), s.opts.heartbeatMs)
    heartbeat.unref()
    const conn: Connection = { out, reply, heartbeat }
    s.conn = conn
    const closed = new Promise<void>((resolve) =>
      out.once('close', () => {
        clearInterval(heartbeat)
        resolve()
        if (s.conn !== conn) return
        s.conn = null
        if (!s.finished) this.awaitResume(s, request)
      }),
    )
    reply.code(200).header('Content-Type', 'text/event-stream; charset=utf-8').header('Cache-Control', 'no-cache').header('X-Accel-Buffering', 'no').send(out)
    // Reconnect well within the grace period; the first bytes also flush the headers.
    out.write(retryLine(s))
    return closed
  }

  /** Ends the current connection: gracefully (the client sees the end) or by destroying the response. */
  private detach(s: Stream, destroy: boolean): void {
    const conn = s.conn
    if (!conn) return
    s.conn = null
    clearInterval(conn.heartbeat)
    if (destroy) conn.reply.raw.destroy()
    else conn.out.end()
  }

  private awaitResume(s: Stream, request: FastifyRequest): void {
    if (s.grace) clearTimeout(s.grace)
    // Handler-named ids resume from the database, on any process: nothing here waits for this client.
    if (s.opts.ownIds) return s.controller.abort(new AppError('stream_abandoned', 'The client disconnected; it resumes with Last-Event-ID.'))
    s.grace = setTimeout(() => {
      s.grace = null
      if (s.conn || s.finished) return
      request.log.debug({ stream: s.id }, 'event stream abandoned')
      s.controller.abort(new AppError('stream_abandoned', `No client resumed the stream within ${s.opts.resumeGraceMs} ms of the disconnect; the work was stopped.`))
    }, s.opts.resumeGraceMs)
    s.grace.unref()
  }

  private emit(s: Stream, event: string, json: string, id?: string): void {
    const seq = s.next++
    const idLine = s.opts.ownIds ? (id === undefined ? '' : `id: ${id}\n`) : `id: ${s.id}:${seq}\n`
    const frame = `${idLine}event: ${event}\ndata: ${json}\n\n`
    // Handler-named ids resume from the database: nothing to keep for a resume here.
    if (s.opts.ownIds) return this.write(s, frame)
    if (s.transcript) {
      s.transcript.push(frame)
      s.transcriptBytes += frame.length
      if (s.transcriptBytes > SSE_DEFAULTS.maxBytes) s.transcript = null
    }
    s.kept.push({ seq, frame })
    s.keptBytes += frame.length
    while (s.kept.length > 1 && (s.kept.length > s.opts.maxEvents || s.keptBytes > SSE_DEFAULTS.maxBytes)) s.keptBytes -= s.kept.shift()!.frame.length
    this.write(s, frame)
  }

  private write(s: Stream, frame: string): void {
    const conn = s.conn
    if (!conn) return
    conn.out.write(frame)
    // A client that does not read: drop the connection rather than buffer without bound (it can resume).
    if (conn.out.writableLength > SSE_DEFAULTS.maxBytes) {
      this.log.debug({ stream: s.id }, 'event stream client too slow; connection dropped')
      this.detach(s, true)
      this.awaitResume(s, conn.reply.request)
    }
  }

  /**
   * The work settled. Before the first event `serve` answers (the problem, or an empty stream). After it, a
   * failure — or a stop (client gone, server closing), even one the handler returned from quietly — is a
   * final `error` event with the problem.
   */
  private end(s: Stream, request: FastifyRequest, failed: boolean, err?: unknown): void {
    this.running.delete(s)
    if (!s.started) return
    const reason: unknown = s.controller.signal.reason
    const stopped = s.controller.signal.aborted && reason instanceof AppError ? reason : null
    if (failed && !stopped && !(err instanceof AppError)) request.log.error({ err }, 'event stream failed')
    if (failed || stopped) this.emit(s, ERROR_EVENT, JSON.stringify(problemBody(request, stopped ?? toAppError(err))))
    this.finish(s)
    this.settle(s, !failed && !stopped)
  }

  /** Hands the recorded stream to whoever asked (an Idempotency-Key): only one that ended well is worth replaying. */
  private settle(s: Stream, clean: boolean): void {
    const record = s.record
    if (!record) return
    s.record = null
    record(clean && s.transcript ? s.transcript.join('') : null)
    s.transcript = null
  }

  private finish(s: Stream): void {
    if (s.finished) return
    s.finished = true
    if (s.grace) clearTimeout(s.grace)
    this.detach(s, false)
    if (!this.streams.has(s.id)) return
    s.expiry = setTimeout(() => this.streams.delete(s.id), s.opts.keepMs)
    s.expiry.unref()
  }
}
