// Test support for the live module's tests (never imported by production code).
import { createParser } from 'eventsource-parser'

export interface SseEvent {
  event?: string
  id?: string
  data: string
}

export interface OpenStream {
  status: number
  events: SseEvent[]
  /** The `event` events' envelopes, parsed. */
  stored(): { id: string; type: string; workspace_id: string; livemode: boolean; data: { object: any } }[]
  presence(): any[]
  errors(): any[]
  /** When the response ended (the server closed it). */
  ended: Promise<void>
  body: string
  close(): void
}

/** Opens GET {base}{path} as an event stream; `events` fills as they arrive. */
export async function openStream(base: string, path: string, key: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const ac = new AbortController()
  const res = await fetch(`${base}${path}`, { headers: { accept: 'text/event-stream', authorization: `Bearer ${key}`, ...headers }, signal: ac.signal })
  const events: SseEvent[] = []
  let body = ''
  let ended: Promise<void> = Promise.resolve()
  if (res.body && res.headers.get('content-type')?.startsWith('text/event-stream')) {
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event, id: e.id, data: e.data }) })
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    ended = (async () => {
      for (;;) {
        const { value, done } = await reader.read()
        if (done) return
        parser.feed(value)
      }
    })().catch(() => undefined)
  } else body = await res.text()
  const of = (name: string) => events.filter((e) => e.event === name).map((e) => JSON.parse(e.data))
  return { status: res.status, events, stored: () => of('event'), presence: () => of('presence'), errors: () => of('error'), ended, body, close: () => ac.abort() }
}

export async function waitFor<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 5000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await check()
    if (v) return v
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
