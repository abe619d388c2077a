import type { ComponentChildren } from 'preact'
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { ApiProblem } from '../../api/problem.js'
import { Empty, Loading, ProblemView } from '../../ui/components.js'
import { useLiveEvents } from '../../ui/live.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Message } from './inbox-shared.js'
import { announceRead, type LiveConversation } from './live-list.js'
import { t } from '../../i18n/index.js'

const PAGE = 30

/** A message in the thread; `sending` for one's own reply before the server has it. */
export type ThreadMessage = Message & { sending?: 'sending' }

const byTime = (a: Message, b: Message) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : a.id < b.id ? -1 : 1)
const isTemp = (m: ThreadMessage) => m.sending !== undefined

/**
 * A conversation's messages, oldest first on screen but read from the newest: the newest page first, older
 * ones on "Load earlier". New messages come from the event stream (deduplicated by id); one's own reply is
 * shown at once (`addPending`) and replaced by the server's message, whichever of the answer and the event
 * arrives first.
 */
export function useThreadMessages(conversationId: string) {
  const { api, membership } = useWorkspace()
  const [items, setItems] = useState<ThreadMessage[]>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<ApiProblem>()
  const [tick, setTick] = useState(0)
  const generation = useRef(0)

  const page = (c: string | undefined) => ok(api.client.GET('/inbox/conversations/{id}/messages', { params: { path: { id: conversationId }, query: { order: 'desc', limit: PAGE, cursor: c } } }))

  useEffect(() => {
    const mine = ++generation.current
    setLoading(true)
    setError(undefined)
    page(undefined).then(
      (p) => {
        if (mine !== generation.current) return
        // Merged, not replaced: messages the stream brought (and replies still being sent) while this was
        // read may be newer than it. Ones older than this page, with pages before it, wait for "Load earlier".
        const newest = p.data.slice().reverse()
        const start = p.has_more ? newest[0] : undefined
        setItems((xs) => merge(start ? xs.filter((x) => isTemp(x) || byTime(x, start) >= 0) : xs, newest))
        setCursor(p.has_more ? (p.next_cursor ?? null) : null)
        setLoading(false)
      },
      (err) => mine === generation.current && (setError(err as ApiProblem), setLoading(false)),
    )
  }, [api, conversationId, tick])

  const earlier = async () => {
    if (!cursor) return
    const mine = generation.current
    setLoading(true)
    setError(undefined)
    try {
      const p = await page(cursor)
      if (mine !== generation.current) return
      setItems((xs) => merge(p.data.slice().reverse(), xs))
      setCursor(p.has_more ? (p.next_cursor ?? null) : null)
    } catch (err) {
      if (mine === generation.current) setError(err as ApiProblem)
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }

  /** The server's message: replaces the same id, or one's own reply still shown as sending, or joins in time order. */
  const upsert = (m: Message, temp?: string) =>
    setItems((xs) => {
      if (xs.some((x) => x.id === m.id)) return xs.map((x) => (x.id === m.id ? m : x)).filter((x) => x.id !== temp)
      const own = temp ?? xs.find((x) => x.sending === 'sending' && m.author.type === 'member' && m.author.id === membership.member_id && x.content === m.content && x.private === m.private)?.id
      return merge(own ? xs.filter((x) => x.id !== own) : xs, [m])
    })

  // The oldest message shown while earlier pages are not loaded: a late event about a message before it (the
  // stream lagging behind a burst) would show that message above a gap; "Load earlier" brings it in order.
  const windowStart = useRef<Message | null>(null)
  windowStart.current = cursor !== null ? (items.find((x) => !isTemp(x)) ?? null) : null

  useLiveEvents(
    ['message.created', 'message.updated'],
    (e) => {
      const m = e.data.object as unknown as Message
      if (m.conversation_id !== conversationId) return
      const start = windowStart.current
      if (start && byTime(m, start) < 0) return
      upsert(m)
    },
    () => setTick((t) => t + 1),
  )

  const addPending = (content: string, isPrivate: boolean): string => {
    const temp = `tmp_${Date.now()}_${Math.random().toString(36).slice(2)}`
    const now = new Date().toISOString()
    setItems((xs) => [
      ...xs,
      {
        id: temp,
        object: 'message',
        conversation_id: conversationId,
        direction: 'outbound',
        private: isPrivate,
        content,
        author: { type: 'member', id: membership.member_id },
        attachments: [],
        created_at: now,
        sending: 'sending',
      } as unknown as ThreadMessage,
    ])
    return temp
  }
  const discard = (temp: string) => setItems((xs) => xs.filter((x) => x.id !== temp))

  return { items, loading, error, hasEarlier: cursor !== null, earlier, reload: () => setTick((t) => t + 1), upsert, addPending, discard }
}
export type ThreadMessages = ReturnType<typeof useThreadMessages>

/** `xs` and `ys` by time, each id once (the later copy wins); replies still being sent stay at the end. */
function merge(xs: ThreadMessage[], ys: ThreadMessage[]): ThreadMessage[] {
  const m = new Map<string, ThreadMessage>()
  for (const x of [...xs, ...ys]) m.set(x.id, x)
  const all = [...m.values()]
  return [...all.filter((x) => !isTemp(x)).sort(byTime), ...all.filter(isTemp)]
}

const NEAR_BOTTOM_PX = 80

/**
 * The messages in a box of their own that scrolls: at the bottom (the newest) when opened and as new ones
 * arrive while the reader is at the bottom (or wrote them); where the reader was when earlier ones are
 * loaded above.
 */
export function MessageScroller({ thread, children }: { thread: ThreadMessages; children: (rows: ThreadMessage[]) => ComponentChildren }) {
  const box = useRef<HTMLDivElement>(null)
  const seen = useRef<{ first?: string; last?: string; height: number; top: number; atBottom: boolean }>({ height: 0, top: 0, atBottom: true })
  const { items } = thread

  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const s = seen.current
    const first = items[0]?.id
    const last = items.at(-1)?.id
    if (s.first === undefined || s.last === undefined) {
      // Opened: the newest message at the bottom of the box, and the box's bottom on screen.
      el.scrollTop = el.scrollHeight
      // After the thread's heading took focus (which scrolls the page to it).
      const newest = el.querySelector('ol > li:last-child')
      setTimeout(() => newest?.scrollIntoView({ block: 'nearest' }), 50)
    } else if (first !== s.first && last === s.last) el.scrollTop = s.top + (el.scrollHeight - s.height)
    else if (last !== s.last && (s.atBottom || (items.at(-1) && isTemp(items.at(-1)!)))) el.scrollTop = el.scrollHeight
    Object.assign(s, { first, last, height: el.scrollHeight, top: el.scrollTop, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX })
  }, [items])

  const onScroll = () => {
    const el = box.current
    if (!el) return
    Object.assign(seen.current, { top: el.scrollTop, height: el.scrollHeight, atBottom: el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX })
  }

  if (items.length === 0) {
    if (thread.error) return <ProblemView problem={thread.error} onRetry={thread.reload} />
    return thread.loading ? <Loading label={t('inbox.live.loadingMessages')} /> : <Empty title={t('inbox.live.noMessages')} />
  }
  return (
    // Focusable so the keyboard scrolls it too (a scrolling box is a stop of its own).
    <div
      class="message-scroller"
      ref={box}
      onScroll={onScroll}
      tabIndex={0}
      role="region"
      aria-label={t('inbox.live.history')}
      style={{ maxHeight: 'min(60vh, 36rem)', overflowY: 'auto', overscrollBehavior: 'contain', padding: '0.25rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)' }}
    >
      {thread.hasEarlier && (
        <p class="load-earlier">
          <button type="button" onClick={() => void thread.earlier()} disabled={thread.loading}>
            {thread.loading ? t('inbox.live.loading') : t('inbox.live.earlier')}
          </button>
        </p>
      )}
      {thread.error && <ProblemView problem={thread.error} />}
      {children(items)}
    </div>
  )
}

/**
 * Marks the conversation read for this member (markConversationRead) while it is open in a visible tab:
 * on opening when it has unread messages, and again for each customer message that arrives while open.
 */
export function useMarkRead(conv: LiveConversation | undefined, thread: ThreadMessages, onRead: (c: LiveConversation) => void) {
  const { api } = useWorkspace()
  const lastInbound = [...thread.items].reverse().find((m) => m.direction === 'inbound')?.id
  const ready = !thread.loading || thread.items.length > 0
  const done = useRef<string | undefined>(undefined)
  const [visible, setVisible] = useState(document.visibilityState === 'visible')
  useEffect(() => {
    const on = () => setVisible(document.visibilityState === 'visible')
    document.addEventListener('visibilitychange', on)
    return () => document.removeEventListener('visibilitychange', on)
  }, [])
  useEffect(() => {
    if (!conv || !visible || !ready) return
    const key = `${conv.id}:${lastInbound ?? ''}`
    if (done.current === key) return
    const opening = done.current === undefined
    done.current = key
    if (opening && conv.unread_count === 0) return
    void api
      .fetch(`/inbox/conversations/${conv.id}/read`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      .then((r) => r.json())
      .then((c: LiveConversation) => {
        onRead(c)
        announceRead()
      })
      .catch(() => undefined) // read state is a convenience: the next message tries again
  }, [conv?.id, lastInbound, visible, ready])
}

/**
 * The open conversation as events change it (status, assignee, tags; here or elsewhere): taken from the
 * event, this member's unread count kept; read again when the stream could not resume.
 */
export function useLiveConversation(id: string, current: LiveConversation | undefined, onFresh: (c: LiveConversation) => void, onGone: () => void) {
  const { api } = useWorkspace()
  useLiveEvents(
    ['conversation.*'],
    (e) => {
      const o = e.data.object as unknown as LiveConversation
      if (o.id !== id) return
      // Retention or an erasure deleted it: the event carries only the id.
      if (e.type === 'conversation.deleted') onGone()
      else onFresh({ ...current, ...o, unread_count: current?.unread_count ?? o.unread_count })
    },
    () =>
      void ok(api.client.GET('/inbox/conversations/{id}', { params: { path: { id } } })).then(
        (c) => onFresh(c as LiveConversation),
        () => undefined,
      ),
  )
}
