import { useEffect, useRef } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Empty, PagedList, Time, type Tone } from '../../ui/components.js'
import { usePaged, useResource } from '../../ui/hooks.js'
import { ConversationActions } from './conversation-actions.js'
import { contactLabel, statusTone, type Conversation, type InboxMeta, type Message } from './inbox-shared.js'
import { ReplyBox } from './reply-box.js'

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

function MessageItem({ m, meta }: { m: Message; meta: InboxMeta }) {
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
        background: m.private ? '#fff8e6' : inbound ? '#fff' : '#eef3fc',
      }}
    >
      <p style={{ margin: '0 0 0.25rem', display: 'flex', flexWrap: 'wrap', gap: '0.5rem', alignItems: 'center', fontSize: '0.87rem' }}>
        <Badge tone={a.tone}>{a.label}</Badge>
        {m.private && <Badge tone="warn">Private note</Badge>}
        <span style={{ color: 'var(--muted)' }}>
          <Time iso={m.created_at} />
        </span>
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

/** One conversation: who it is with, its actions, its messages oldest first, and the reply box. */
export function Thread({ id, meta, onChanged }: { id: string; meta: InboxMeta; onChanged: (c: Conversation) => void }) {
  const conv = useResource((api) => ok(api.client.GET('/inbox/conversations/{id}', { params: { path: { id } } })), [id])
  const messages = usePaged(
    (api, cursor) => ok(api.client.GET('/inbox/conversations/{id}/messages', { params: { path: { id }, query: { order: 'asc', limit: 50, cursor } } })),
    [id],
  )
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
            <h3 style={{ fontSize: '1rem' }}>Messages</h3>
            <PagedList list={messages} emptyView={<Empty title="No messages yet" />} loadingLabel="Loading messages…">
              {(rows) => (
                <ol aria-label="Messages" style={{ padding: 0, margin: 0 }}>
                  {rows.map((m) => (
                    <MessageItem key={m.id} m={m} meta={meta} />
                  ))}
                </ol>
              )}
            </PagedList>
            <ReplyBox
              conv={c}
              onSent={(m) => {
                // Oldest first: a new message belongs at the end once every page is loaded.
                if (!messages.hasMore) messages.setItems((xs) => [...xs, m])
                conv.reload()
              }}
            />
          </>
        )}
      </Async>
    </section>
  )
}
