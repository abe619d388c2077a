import { useLocation } from 'preact-iso'
import { useRef, useState } from 'preact/hooks'
import type { LiveEvent } from '../../ui/live.js'
import { LiveState } from '../../ui/live-state.js'
import { useWorkspace } from '../../ui/workspace.js'
import { contactLabel, type Message } from './inbox-shared.js'
import type { LiveConversation } from './live-list.js'
import { t } from '../../i18n/index.js'

/** This browser's choice (localStorage): notifications are opt-in, and the browser asks for permission once. */
const NOTIFY_KEY = 'svc.inbox.notify'

const supported = () => typeof Notification !== 'undefined'
const enabled = () => {
  try {
    return supported() && localStorage.getItem(NOTIFY_KEY) === '1' && Notification.permission === 'granted'
  } catch {
    return false
  }
}

/** Whether the inbox is live, and the notifications' opt-in: a checkbox that asks the browser for permission when turned on. */
export function NotifyToggle() {
  const [on, setOn] = useState(enabled)
  const [note, setNote] = useState('')
  return (
    <div class="notify-toggle" style={{ margin: '0 0 0.75rem', display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'center' }}>
      <LiveState />
      {supported() && (
        <label style={{ display: 'inline-flex', gap: '0.4rem', alignItems: 'center' }}>
          <input
            type="checkbox"
            checked={on}
            onChange={async (e) => {
              const want = (e.target as HTMLInputElement).checked
              setNote('')
              if (want && Notification.permission !== 'granted' && (await Notification.requestPermission()) !== 'granted') {
                setOn(false)
                setNote(t('inbox.live.notifyBlocked'))
                return
              }
              try {
                if (want) localStorage.setItem(NOTIFY_KEY, '1')
                else localStorage.removeItem(NOTIFY_KEY)
              } catch {
                // storage refused: the choice lasts for this page
              }
              setOn(want)
            }}
          />
          {t('inbox.live.notify')}
        </label>
      )}
      {note && (
        <p class="hint" role="status">
          {note}
        </p>
      )}
    </div>
  )
}

/**
 * Browser notifications for this member's own conversations, when turned on: one assigned to them (not the
 * one they are looking at), and a customer's new message in one of theirs that is not in view. A click
 * opens the conversation.
 */
export function useNotifier(openId: string | undefined): (e: LiveEvent, c: LiveConversation, before: LiveConversation | undefined) => void {
  const { membership } = useWorkspace()
  const { route } = useLocation()
  const open = useRef(openId)
  open.current = openId
  return (e, c, before) => {
    if (!enabled() || c.assignee_id !== membership.member_id) return
    const inView = c.id === open.current && document.visibilityState === 'visible'
    let title: string | undefined
    let body = c.subject ?? ''
    if (e.type === 'conversation.assigned' && c.id !== open.current) title = t('inbox.live.assignedToYou', { name: contactLabel(c) })
    // A message counts when the conversation was this member's as it arrived (the list's copy, not a later read).
    else if (e.type === 'message.created' && !inView && before?.assignee_id === membership.member_id) {
      const m = e.data.object as unknown as Message
      if (m.direction !== 'inbound' || m.private) return
      title = t('inbox.live.newMessage', { name: contactLabel(c) })
      body = m.content.length > 140 ? `${m.content.slice(0, 139)}…` : m.content
    }
    if (!title) return
    try {
      const n = new Notification(title, { body, tag: c.id })
      n.onclick = () => {
        window.focus()
        route(`/dashboard/inbox/${c.id}`)
        n.close()
      }
    } catch {
      // a browser that only notifies from a service worker (Chrome on Android): no notification
    }
  }
}
