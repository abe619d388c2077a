import { useEffect, useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { useLiveEvents, type LiveEvent } from '../../ui/live.js'
import { useThrottled } from '../../ui/live-lists.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Message } from './inbox-shared.js'
import { byActivity, matchesQuery, type LiveConversation } from './live-rules.js'
import { formatNumber, t } from '../../i18n/index.js'

export { activityOf, byActivity, matchesQuery, type LiveConversation } from './live-rules.js'

type ListLike = { items: LiveConversation[]; loading: boolean; setItems: (f: (xs: LiveConversation[]) => LiveConversation[]) => void; reload: () => void }

const conversationOf = (e: LiveEvent): string | undefined =>
  e.type.startsWith('conversation.') ? (e.data.object as { id?: string }).id : (e.data.object as { conversation_id?: string }).conversation_id

/**
 * Keeps the conversation list current from the event stream: a conversation created, changed, assigned,
 * resolved or written in is read again (with this member's unread count) and put where it belongs in the
 * list (newest activity first), or taken out when it no longer matches the filters. Also tells `onActivity`
 * (browser notifications) what happened. `list` and `query` are what the page shows now; `openId` the
 * conversation open beside the list.
 */
export function useLiveConversationList(
  list: ListLike,
  query: Record<string, unknown>,
  openId: string | undefined,
  onActivity?: (e: LiveEvent, c: LiveConversation, before: LiveConversation | undefined) => void,
): void {
  const { api, membership } = useWorkspace()
  const put = (conv: LiveConversation) => {
    let c = conv
    // The open conversation in a visible tab is being read (the thread marks it so): no unread marker flashing up.
    if (c.id === openId && document.visibilityState === 'visible' && c.unread_count) c = { ...c, unread_count: 0 }
    const fits = matchesQuery(c, query, membership.member_id)
    list.setItems((xs) => {
      const had = xs.some((x) => x.id === c.id)
      if (fits === false) return had ? xs.filter((x) => x.id !== c.id) : xs
      if (!had && fits === undefined) return xs
      return [c, ...xs.filter((x) => x.id !== c.id)].sort(byActivity)
    })
  }
  const read = (id: string) =>
    void ok(api.client.GET('/inbox/conversations/{id}', { params: { path: { id } } })).then(
      (fresh) => put(fresh as LiveConversation),
      () => undefined, // deleted or no longer ours: the next reload shows it
    )
  // A page being read may have been asked for before a change the stream brings now, and would overwrite it:
  // what changed while the list was loading is read again once it is done.
  const touched = useRef(new Set<string>())
  useEffect(() => {
    if (list.loading || touched.current.size === 0) return
    const ids = [...touched.current]
    touched.current.clear()
    ids.forEach(read)
  }, [list.loading])
  useLiveEvents(
    ['conversation.*', 'message.created'],
    (e) => {
      const id = conversationOf(e)
      if (!id) return
      // Retention or an erasure deleted it: out of the list, nothing to read or notify.
      if (e.type === 'conversation.deleted') return list.setItems((xs) => xs.filter((x) => x.id !== id))
      if (list.loading) touched.current.add(id)
      // At once from the event (as the list knew it before, for what the event does not carry) ...
      const before = list.items.find((x) => x.id === id)
      let now: LiveConversation | undefined
      if (e.type.startsWith('conversation.')) {
        const o = e.data.object as unknown as LiveConversation
        now = { ...before, ...o, unread_count: before?.unread_count ?? o.unread_count }
      } else if (before) {
        const m = e.data.object as unknown as Message
        now = { ...before, last_activity_at: m.created_at, last_message_at: m.created_at, unread_count: (before.unread_count ?? 0) + (m.direction === 'inbound' ? 1 : 0) }
      }
      if (now) {
        put(now)
        onActivity?.(e, now, before)
      }
      // ... then as the server has it for this member (the unread count, the preview).
      read(id)
    },
    list.reload,
  )
}

/** A conversation read in another way (opened, marked read, changed in the thread): the same one in the list follows. */
export const replaceIn = (list: ListLike, c: LiveConversation) => list.setItems((xs) => xs.map((x) => (x.id === c.id ? { ...x, ...c } : x)))

/**
 * GET /inbox/counts, read again (at most twice a second) on every inbox event and each time this member
 * reads a conversation (`svc:inbox-read`, not an event: read state is per member). Its `unread` is the
 * number in the tab title.
 */
export function useInboxCounts(): { unread: number; mine: number } | undefined {
  const { api } = useWorkspace()
  const [counts, setCounts] = useState<{ unread: number; mine: number }>()
  const load = useThrottled(() => {
    void api
      .fetch('/inbox/counts')
      .then((r) => r.json())
      .then((c: { unread: number; mine: number }) => setCounts(c))
      .catch(() => undefined)
  }, 500)
  useEffect(() => {
    load()
    window.addEventListener('svc:inbox-read', load)
    return () => window.removeEventListener('svc:inbox-read', load)
  }, [api])
  useLiveEvents(['conversation.*', 'message.created'], load, load)
  return counts
}

/** "(3) Inbox · Dashboard": the unread conversations in the tab's title, for an agent working in another tab. */
export function useUnreadTitle(title: string, unread: number | undefined): void {
  useEffect(() => {
    document.title = `${unread ? `(${formatNumber(unread)}) ` : ''}${t('shell.documentTitle', { title })}`
  }, [title, unread])
}

/** Says that this member read a conversation (the counts and the title follow). */
export const announceRead = () => window.dispatchEvent(new Event('svc:inbox-read'))
