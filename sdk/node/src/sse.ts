// Server-Sent Events (text/event-stream), parsed per the HTML spec: `event:`, `data:` (lines joined by \n),
// `id:`, `retry:`, comments (`:`) ignored, an event ends at a blank line.

import { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js'
import { ConnectionError, SvcError } from './errors.js'

export interface ServerSentEvent<T = unknown> {
  /** The event type (`message` when the stream names none). */
  event: string
  /** The data, JSON-parsed when it parses; else the text. */
  data: T
  /** The last event id seen so far in the stream (the spec's last event ID), null when none. */
  id: string | null
  /** The data as sent (text). */
  raw: string
  /** The reconnection time the server asked for, in ms, when it sent one with this event. */
  retry?: number
}

interface RawEvent {
  event: string
  data: string
  id: string | null
  retry?: number
}

/** Splits a byte stream into SSE lines (CRLF, LF or CR) and those into events. */
export async function* parseSSE(body: AsyncIterable<Uint8Array>): AsyncGenerator<RawEvent, void, undefined> {
  const decoder = new TextDecoder('utf-8')
  let buf = ''
  let data = ''
  let hasData = false
  let type = ''
  let lastId: string | null = null
  let retry: number | undefined

  const line = (l: string): RawEvent | null => {
    if (l === '') {
      if (!hasData) {
        type = ''
        retry = undefined
        return null
      }
      const ev: RawEvent = { event: type || 'message', data: data.endsWith('\n') ? data.slice(0, -1) : data, id: lastId }
      if (retry !== undefined) ev.retry = retry
      data = ''
      hasData = false
      type = ''
      retry = undefined
      return ev
    }
    if (l.startsWith(':')) return null
    const colon = l.indexOf(':')
    const field = colon === -1 ? l : l.slice(0, colon)
    let value = colon === -1 ? '' : l.slice(colon + 1)
    if (value.startsWith(' ')) value = value.slice(1)
    if (field === 'event') type = value
    else if (field === 'data') {
      data += `${value}\n`
      hasData = true
    } else if (field === 'id') {
      if (!value.includes('\0')) lastId = value
    } else if (field === 'retry') {
      if (/^\d+$/.test(value)) retry = Number(value)
    }
    return null
  }

  const drain = function* (final: boolean): Generator<RawEvent> {
    for (;;) {
      const cr = buf.indexOf('\r')
      const lf = buf.indexOf('\n')
      const at = cr === -1 ? lf : lf === -1 ? cr : Math.min(cr, lf)
      if (at === -1) break
      let end = at + 1
      if (buf[at] === '\r') {
        // A CR at the very end may be the first half of a CRLF split across chunks.
        if (at === buf.length - 1 && !final) break
        if (buf[at + 1] === '\n') end = at + 2
      }
      const ev = line(buf.slice(0, at))
      buf = buf.slice(end)
      if (ev) yield ev
    }
  }

  for await (const chunk of body) {
    buf += decoder.decode(chunk, { stream: true })
    yield* drain(false)
  }
  buf += decoder.decode()
  yield* drain(true)
  // An event not ended by a blank line is discarded (the spec's end-of-stream rule).
}

function toEvent<T>(raw: RawEvent): ServerSentEvent<T> {
  let data: unknown = raw.data
  try {
    data = JSON.parse(raw.data)
  } catch {
    data = raw.data
  }
  const ev: ServerSentEvent<T> = { event: raw.event, data: data as T, id: raw.id, raw: raw.data }
  if (raw.retry !== undefined) ev.retry = raw.retry
  return ev
}

/**
 * An open event stream: iterate it once with `for await`; leaving the loop (or `close()`) closes the
 * connection, which stops the work on the server.
 */
export class EventStream<T = unknown> implements AsyncIterable<ServerSentEvent<T>> {
  /** The response the stream came in (status 200, headers, request id). */
  readonly response: ResponseInfo
  readonly #body: ReadableStream<Uint8Array> | null
  readonly #controller: AbortController
  #used = false

  constructor(body: ReadableStream<Uint8Array> | null, response: ResponseInfo, controller: AbortController) {
    this.#body = body
    this.response = response
    this.#controller = controller
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ServerSentEvent<T>, void, undefined> {
    if (this.#used) throw new SvcError('An event stream can be iterated once')
    this.#used = true
    if (!this.#body) return
    try {
      for await (const raw of parseSSE(this.#body as unknown as AsyncIterable<Uint8Array>)) yield toEvent<T>(raw)
    } catch (err) {
      if (this.#controller.signal.aborted) return
      throw err instanceof SvcError ? err : new ConnectionError(`The event stream broke: ${(err as Error)?.message ?? err}`, { cause: err })
    } finally {
      this.close()
    }
  }

  /** Closes the connection. */
  close(): void {
    if (!this.#controller.signal.aborted) this.#controller.abort()
  }
}

/**
 * What a streaming method returns: a promise-like of the open EventStream that is itself an async iterable
 * of its events (`for await (const e of svc.agents.dryRun.stream(id, { input }))`).
 */
export class StreamPromise<T = unknown> extends ApiPromise<EventStream<T>> implements AsyncIterable<ServerSentEvent<T>> {
  constructor(inner: Promise<WithResponse<EventStream<T>>>) {
    super(inner)
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ServerSentEvent<T>, void, undefined> {
    const stream = await this
    yield* stream
  }
}
