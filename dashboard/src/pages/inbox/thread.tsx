import { useEffect, useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Time, type Tone } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { ConversationActions } from './conversation-actions.js'
import { contactLabel, statusTone, type Conversation, type InboxMeta, type Message } from './inbox-shared.js'
import { PresenceBar, usePresence } from './live-presence.js'
import { MessageScroller, useLiveConversation, useMarkRead, useThreadMessages, type ThreadMessage } from './live-thread.js'
import { ReplyBox } from './reply-box.js'
import { ThreadTools } from './thread-tools.js'
import { t } from '../../i18n/index.js'

/** Who wrote a message: the customer, a person of the team, a bot, an AI agent or an API key. */
function author(m: Message, meta: InboxMeta): { label: string; tone: Tone } {
  switch (m.author.type) {
    case 'contact':
      return { label: 'Customer', tone: 'info' }
    case 'member': {
      const who = meta.members.data?.find((x) => x.id === m.author.id)
      return { label: `Agent: ${who ? (who.name ?? who.email) : (m.author.id ?? 'member')}`, tone: 'good' }
    }
    case 'bot':
      return { label: 'Bot', tone: 'warn' }
    case 'agent':
      return { label: 'AI agent', tone: 'warn' }
    default:
      return { label: 'API', tone: 'neutral' }
  }
}

function MessageItem({ m, meta }: { m: ThreadMessage; meta: InboxMeta }) {
  const a = author(m, meta)
  const inbound = m.direction === 'inbound'
  return (
    <li
      data-author={m.author.type}
      style={{
        listStyle: 'none',
        margin: inbound ? '0 2rem 0.6rem 0' : '0 0 0.6rem 2rem',
        padding: '0.5rem 0.75rem',
        borderRadius: 'var(--radius)',
        border: '1px solid var(--line)',
        background: m.private ? 'var(--bubble-private)' : inbound ? 'var(--bubble-inbound)' : 'var(--bubble-outbound)',
      }}
    >
      <p style={{ margin: '0 0 0.25rem', display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center', fontSize: '0.87rem' }}>
        <Badge tone={a.tone}>{a.label}</Badge>
        {m.private && <Badge tone="warn">Private note</Badge>}
        <span style={{ color: 'var(--muted)' }}>{m.sending ? t('inbox.live.sending') : <Time iso={m.created_at} />}</span>
      </p>
      <p class="message-content" style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {m.content}
      </p>
      {m.attachments.length > 0 && (
        <ul style={{ margin: '0.3rem 0 0', paddingLeft: '1.2rem' }}>
          {m.attachments.map((f) => (
            <li>
              <a href={f.url} rel="noopener noreferrer" target="_blank">
                {f.filename ?? f.url}
              </a>
            </li>
          ))}
        </ul>
      )}
    </li>
  )
}

/**
 * One conversation: who it is with, its actions, its messages (the newest in view, earlier ones above),
 * who else is here, and the reply box. Kept current by the event stream.
 */
export function Thread({ id, meta, onChanged }: { id: string; meta: InboxMeta; onChanged: (c: Conversation) => void }) {
  const conv = useResource((api) => ok(api.client.GET('/inbox/conversations/{id}', { params: { path: { id } } })), [id])
  const messages = useThreadMessages(id)
  const presence = usePresence(id)
  const [typed, setTyped] = useState(false)
  // Replying: text typed now, or a draft kept from before (drafts.ts) that is still in the box.
  const replyArea = useRef<HTMLDivElement>(null)
  const replying = typed || !!replyArea.current?.querySelector('textarea')?.value.trim()
  useLiveConversation(
    id,
    conv.data,
    (c) => {
      conv.set(c)
      onChanged(c)
    },
    // Read again: the answer (not found) says it is gone.
    conv.reload,
  )
  useMarkRead(conv.data, messages, onChanged)
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (conv.data?.id === id) heading.current?.focus()
  }, [conv.data?.id])
  const changed = (c: Conversation) => {
    conv.set(c)
    onChanged(c)
  }
  return (
    <section class="panel thread" aria-labelledby="thread-title">
      <Async loading={conv.loading} error={conv.error} data={conv.data} onRetry={conv.reload}>
        {(c) => (
          <>
            <header style={{ marginBottom: '0.75rem' }}>
              <h2 id="thread-title" ref={heading} tabIndex={-1} style={{ overflowWrap: 'anywhere' }}>
                {contactLabel(c)} <Badge tone={statusTone(c.status)}>{c.status}</Badge>
              </h2>
              <p style={{ margin: 0, color: 'var(--muted)', overflowWrap: 'anywhere' }}>
                {c.subject ?? 'No subject'} · {c.channel}
                {c.contact.email && ` · ${c.contact.email}`}
                {c.contact.phone && ` · ${c.contact.phone}`} · lead score {typeof c.lead_score === 'number' ? c.lead_score : c.lead_score.score}
              </p>
            </header>
            <ConversationActions conv={c} meta={meta} onChanged={changed} />
            <ThreadTools conv={c} onChanged={changed} />
            <h3 style={{ fontSize: '1rem' }}>Messages</h3>
            <MessageScroller thread={messages}>
              {(rows) => (
                <ol aria-label="Messages" style={{ padding: 0, margin: 0 }}>
                  {rows.map((m) => (
                    <MessageItem key={m.id} m={m} meta={meta} />
                  ))}
                </ol>
              )}
            </MessageScroller>
            <PresenceBar others={presence.others} replying={replying} />
            {/* Keystrokes bubble up here: presence (typing) without the reply box knowing of it. */}
            <div
              ref={replyArea}
              onInput={(e) => {
                const box = e.target as HTMLElement
                if (box.tagName !== 'TEXTAREA') return
                presence.typed()
                setTyped((box as HTMLTextAreaElement).value.trim() !== '')
              }}
            >
              <ReplyBox
                conv={c}
                onSending={(content, isPrivate) => messages.addPending(content, isPrivate)}
                onFailed={(temp) => messages.discard(temp)}
                onSent={(m, temp) => {
                  messages.upsert(m, temp)
                  setTyped(false)
                }}
              />
            </div>
          </>
        )}
      </Async>
    </section>
  )
}
