import { createParser } from 'eventsource-parser'
import { useEffect, useRef, useState } from 'preact/hooks'
import { BASE_URL, type Mode } from '../api/client.js'
import { loadSession, tokenFor } from '../api/session.js'
import { typeMatches } from './live-rules.js'
import { useWorkspace } from './workspace.js'

/** A stored event as the stream sends it: exactly the webhook envelope. */
export interface LiveEvent<T = Record<string, unknown>> {
  id: string
  type: string
  created_at: string
  workspace_id: string
  livemode: boolean
  data: { object: T }
}

/** Someone viewing or typing in a conversation; never stored, gone when not refreshed by `expires_at`. */
export interface Presence {
  object: 'presence'
  conversation_id: string
  actor: { type: string; id: string; name: string | null }
  state: 'viewing' | 'typing' | 'idle'
  expires_at: string
}

export type LinkState = 'connecting' | 'live' | 'reconnecting'

type Listener = {
  /** Event types this listener wants; a trailing `*` is a prefix ("conversation.*"). */
  types: string[]
  event?: (e: LiveEvent) => void
  presence?: (p: Presence) => void
  /** The stream opened without resuming (first time, or resume impossible): anything may have been missed. */
  resync?: () => void
}

const RECENT = 500
const BACKOFF_MAX_MS = 30_000
/** Kept open this long after its last subscriber left, so moving between pages does not reconnect. */
const LINGER_MS = 30_000

/**
 * One connection per tab, workspace and mode to GET /events/stream, shared by every subscriber. EventSource
 * cannot send Authorization, so it is fetch streaming read by eventsource-parser. Each (re)connect asks for
 * a token valid long enough and sends the last event id seen (Last-Event-ID), so the server resumes after it
 * on any node; a drop is retried with exponential backoff (with jitter, capped at 30 s). Delivery is
 * at least once: events are deduplicated by id.
 */
class LiveStream {
  private listeners = new Set<Listener>()
  private lastId: string | undefined
  private recent: string[] = []
  private seen = new Set<string>()
  private abort: AbortController | undefined
  private linger: ReturnType<typeof setTimeout> | undefined
  private stateListeners = new Set<(s: LinkState) => void>()
  state: LinkState = 'connecting'

  constructor(
    private workspaceId: string,
    private mode: Mode,
  ) {}

  subscribe(l: Listener): () => void {
    this.listeners.add(l)
    clearTimeout(this.linger)
    if (!this.abort) this.start()
    return () => {
      this.listeners.delete(l)
      if (this.listeners.size === 0) this.linger = setTimeout(() => this.stop(), LINGER_MS)
    }
  }

  onState(fn: (s: LinkState) => void): () => void {
    this.stateListeners.add(fn)
    return () => this.stateListeners.delete(fn)
  }

  private setState(s: LinkState) {
    if (this.state === s) return
    this.state = s
    for (const fn of this.stateListeners) fn(s)
  }

  private stop() {
    this.abort?.abort()
    this.abort = undefined
    this.setState('connecting')
  }

  private start() {
    const ac = new AbortController()
    this.abort = ac
    void this.loop(ac.signal)
  }

  private async loop(signal: AbortSignal) {
    let failures = 0
    while (!signal.aborted) {
      let opened = false
      try {
        opened = await this.connect(signal, failures > 0)
      } catch {
        // a refused or dropped connection: tried again below
      }
      if (signal.aborted) return
      if (opened) failures = 0
      failures++
      this.setState('reconnecting')
      const wait = Math.min(BACKOFF_MAX_MS, 500 * 2 ** Math.min(failures - 1, 6))
      await new Promise((r) => setTimeout(r, wait / 2 + Math.random() * (wait / 2)))
    }
  }

  /** One connection, until it ends; true when it got as far as `ready`. */
  private async connect(signal: AbortSignal, afterFailure: boolean): Promise<boolean> {
    const request = async (fresh: boolean) =>
      fetch(`${BASE_URL[this.mode]}/events/stream`, {
        headers: {
          accept: 'text/event-stream',
          authorization: `Bearer ${await tokenFor(this.workspaceId, this.mode, fresh)}`,
          ...(this.lastId ? { 'last-event-id': this.lastId } : {}),
        },
        signal,
        cache: 'no-store',
      })
    let res = await request(afterFailure)
    if (res.status === 401) {
      res = await request(true)
      if (res.status === 401) {
        await loadSession() // goes to the sign-in page when the session has ended
        return false
      }
    }
    if (!res.ok || !res.body) return false
    let opened = false
    const resumed = this.lastId !== undefined
    const parser = createParser({
      onEvent: (m) => {
        if (m.event === 'ready') {
          opened = true
          // Where this stream starts: a reconnect before any event resumes from here.
          if (m.id && !this.lastId) this.lastId = m.id
          this.setState('live')
          if (!resumed) for (const l of [...this.listeners]) l.resync?.()
        } else if (m.event === 'event') this.dispatchEvent(m.data)
        else if (m.event === 'presence') this.dispatchPresence(m.data)
      },
    })
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    try {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return opened
        parser.feed(value)
      }
    } catch {
      return opened
    }
  }

  private dispatchEvent(raw: string) {
    let e: LiveEvent
    try {
      e = JSON.parse(raw) as LiveEvent
    } catch {
      return
    }
    if (!e.id || this.seen.has(e.id)) return
    this.lastId = e.id
    this.seen.add(e.id)
    this.recent.push(e.id)
    if (this.recent.length > RECENT) this.seen.delete(this.recent.shift()!)
    for (const l of [...this.listeners]) {
      if (!l.event || !typeMatches(l.types, e.type)) continue
      try {
        l.event(e)
      } catch (err) {
        console.warn('live event handler failed', err)
      }
    }
  }

  private dispatchPresence(raw: string) {
    let p: Presence
    try {
      p = JSON.parse(raw) as Presence
    } catch {
      return
    }
    for (const l of [...this.listeners]) l.presence?.(p)
  }
}

const streams = new Map<string, LiveStream>()
function streamFor(workspaceId: string, mode: Mode): LiveStream {
  const k = `${workspaceId}:${mode}`
  let s = streams.get(k)
  if (!s) streams.set(k, (s = new LiveStream(workspaceId, mode)))
  return s
}

/**
 * Calls `onEvent` for each new event of `types` in the chosen workspace and mode (the tab's one shared
 * stream), and `onResync` when the stream (re)opened without resuming, so the page reloads what it shows.
 * The handlers may change between renders; the subscription stays.
 */
export function useLiveEvents(types: string[], onEvent: (e: LiveEvent) => void, onResync?: () => void): void {
  const { api } = useWorkspace()
  const fns = useRef({ onEvent, onResync })
  fns.current = { onEvent, onResync }
  const key = types.join(',')
  useEffect(
    () =>
      streamFor(api.workspaceId, api.mode).subscribe({
        types,
        event: (e) => fns.current.onEvent(e),
        resync: () => fns.current.onResync?.(),
      }),
    [api, key],
  )
}

/** Calls `onPresence` for each presence update on the stream. */
export function useLivePresence(onPresence: (p: Presence) => void): void {
  const { api } = useWorkspace()
  const fn = useRef(onPresence)
  fn.current = onPresence
  useEffect(() => streamFor(api.workspaceId, api.mode).subscribe({ types: [], presence: (p) => fn.current(p) }), [api])
}

/** Whether the stream is connected ("live") or trying to be. */
export function useLiveState(): LinkState {
  const { api } = useWorkspace()
  const s = streamFor(api.workspaceId, api.mode)
  const [state, setState] = useState(s.state)
  useEffect(() => {
    setState(s.state)
    return s.onState(setState)
  }, [s])
  return state
}
