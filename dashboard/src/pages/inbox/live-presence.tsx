import { useEffect, useRef, useState } from 'preact/hooks'
import { Notice } from '../../ui/components.js'
import { useLivePresence, type Presence } from '../../ui/live.js'
import { useWorkspace } from '../../ui/workspace.js'
import { t } from '../../i18n/index.js'

const VIEWING_EVERY_MS = 10_000
const TYPING_EVERY_MS = 3_000
/** Typing that stopped this long ago is viewing again. */
const TYPING_STOPS_MS = 6_000

export interface Someone {
  id: string
  name: string
  /** The customer (typing in the web chat widget), not another member: no collision warning for them. */
  customer: boolean
  state: 'viewing' | 'typing'
  expires: number
}

/**
 * This member's presence in a conversation and everyone else's: POSTs `viewing` on opening and every 10 s
 * while the tab is visible, `typing` (at most every 3 s) while the reply box changes, `idle` on leaving;
 * and follows the others' presence from the stream (each expires unless refreshed).
 * `typed()` is called on each keystroke in the reply box.
 */
export function usePresence(conversationId: string): { others: Someone[]; typed: () => void } {
  const { api, membership } = useWorkspace()
  const [others, setOthers] = useState<Map<string, Someone>>(new Map())
  const typing = useRef<{ lastSent: number; stopTimer?: ReturnType<typeof setTimeout> }>({ lastSent: 0 })

  const send = (state: Presence['state']) =>
    api
      .fetch(`/inbox/conversations/${conversationId}/presence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ state }),
        keepalive: state === 'idle',
      })
      .catch(() => undefined) // presence is a hint: a lost update is refreshed 10 s later

  useEffect(() => {
    const viewing = () => document.visibilityState === 'visible' && void send('viewing')
    viewing()
    const every = setInterval(viewing, VIEWING_EVERY_MS)
    const onVisibility = () => (document.visibilityState === 'visible' ? viewing() : void send('idle'))
    document.addEventListener('visibilitychange', onVisibility)
    return () => {
      clearInterval(every)
      clearTimeout(typing.current.stopTimer)
      document.removeEventListener('visibilitychange', onVisibility)
      void send('idle')
      setOthers(new Map())
    }
  }, [conversationId, api])

  const answered = useRef(0)
  useLivePresence((p) => {
    if (p.conversation_id !== conversationId || p.actor.id === membership.member_id) return
    // Someone just came: say that this member is here too, rather than leave them guessing for up to 10 s.
    if (p.state !== 'idle' && !others.has(p.actor.id) && Date.now() - answered.current > 2000 && document.visibilityState === 'visible') {
      answered.current = Date.now()
      void send('viewing')
    }
    setOthers((m) => {
      const next = new Map(m)
      if (p.state === 'idle') next.delete(p.actor.id)
      else next.set(p.actor.id, { id: p.actor.id, name: p.actor.name ?? t('inbox.live.someone'), customer: p.actor.type === 'contact', state: p.state, expires: Date.parse(p.expires_at) })
      return next
    })
  })

  // Drop presences nobody refreshed (a closed laptop sends no `idle`).
  useEffect(() => {
    if (others.size === 0) return
    const soonest = Math.min(...[...others.values()].map((o) => o.expires))
    const t = setTimeout(() => setOthers((m) => new Map([...m].filter(([, o]) => o.expires > Date.now()))), Math.max(0, soonest - Date.now()) + 50)
    return () => clearTimeout(t)
  }, [others])

  const typed = () => {
    const t = typing.current
    const now = Date.now()
    if (now - t.lastSent >= TYPING_EVERY_MS) {
      t.lastSent = now
      void send('typing')
    }
    clearTimeout(t.stopTimer)
    t.stopTimer = setTimeout(() => {
      t.lastSent = 0
      void send('viewing')
    }, TYPING_STOPS_MS)
  }

  return { others: [...others.values()].sort((a, b) => a.name.localeCompare(b.name)), typed }
}

const names = (xs: Someone[]) => xs.map((x) => x.name).join(', ')

/**
 * Who else is here ("Ada is viewing", "Ada is typing…"), and a warning when someone else types while this
 * member has a reply under way: two answers to one customer.
 */
export function PresenceBar({ others, replying }: { others: Someone[]; replying: boolean }) {
  const typingOnes = others.filter((o) => o.state === 'typing')
  const viewingOnes = others.filter((o) => o.state === 'viewing')
  return (
    <div class="presence">
      {/* Always there, empty when alone: a live region announces only changes to one already shown. */}
      <p class="presence-line" role="status" aria-live="polite" style={{ margin: others.length ? '0 0 0.5rem' : 0, color: 'var(--muted)', fontSize: '0.9rem' }}>
        {typingOnes.length > 0 && t('inbox.live.typing', { names: names(typingOnes), count: typingOnes.length })}
        {typingOnes.length > 0 && viewingOnes.length > 0 && ' · '}
        {viewingOnes.length > 0 && t('inbox.live.viewing', { names: names(viewingOnes), count: viewingOnes.length })}
      </p>
      {replying && typingOnes.some((o) => !o.customer) && (
        <Notice tone="warn">{t('inbox.live.collision', { names: names(typingOnes.filter((o) => !o.customer)), count: typingOnes.filter((o) => !o.customer).length })}</Notice>
      )}
    </div>
  )
}
