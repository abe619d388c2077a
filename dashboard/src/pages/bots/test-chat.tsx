import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Field, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Bot, BotReply, BotVersion } from './bots-shared.js'

const DRAFT = 'draft'

interface Turn {
  question: string
  reply: BotReply
}

function ReplyView({ reply }: { reply: BotReply }) {
  return (
    <div style={{ margin: '0 0 0.75rem 2rem', padding: '0.5rem 0.75rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: '#eef3fc' }}>
      <p style={{ margin: '0 0 0.25rem', display: 'flex', flexWrap: 'wrap', gap: '0.4rem', fontSize: '0.87rem' }}>
        <Badge tone="warn">Bot</Badge>
        {reply.grounded ? <Badge tone="good">grounded</Badge> : <Badge tone="neutral">not grounded</Badge>}
        {reply.handoff && <Badge tone="bad">handed to a person{reply.handoff_reason ? `: ${reply.handoff_reason}` : ''}</Badge>}
        <span>confidence {reply.confidence === null ? '—' : `${Math.round(reply.confidence * 100)}%`}</span>
      </p>
      <p class="bot-answer" style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {reply.content}
      </p>
      {reply.citations.length > 0 && (
        <ol aria-label="Citations" style={{ margin: '0.4rem 0 0', paddingLeft: '1.3rem', fontSize: '0.9rem' }}>
          {reply.citations.map((c) => (
            <li style={{ overflowWrap: 'anywhere' }}>
              <strong>{c.citation.title}</strong>: <q>{c.excerpt}</q>
            </li>
          ))}
        </ol>
      )}
      {reply.guardrails.length > 0 && (
        <ul aria-label="Guardrails that fired" style={{ margin: '0.4rem 0 0', paddingLeft: '1.3rem', fontSize: '0.9rem' }}>
          {reply.guardrails.map((g) => (
            <li>
              {g.guardrail} ({g.stage}, {g.action}): {g.detail}
            </li>
          ))}
        </ul>
      )}
      {reply.tool_calls.length > 0 && <p style={{ margin: '0.3rem 0 0', fontSize: '0.9rem' }}>Tools called: {reply.tool_calls.map((t) => `${t.name} (${t.ok ? 'ok' : 'failed'})`).join(', ')}</p>}
    </div>
  )
}

/**
 * A test chat with a version of the bot: by default the draft, frozen into a new (unpublished) version
 * first when it changed, so customers never see it. The exchange is a real inbox conversation.
 */
export function TestChat({ bot, versions, onVersionCreated }: { bot: Bot; versions: BotVersion[]; onVersionCreated: () => void }) {
  const { api } = useWorkspace()
  const latest = versions[0]
  const draftDiffers = !latest || (bot.has_unpublished_changes && (latest.live || Date.parse(bot.updated_at) > Date.parse(latest.created_at)))
  const [choice, setChoice] = useState<string>('')
  const selected = choice || (draftDiffers ? DRAFT : latest.id)
  const [text, setText] = useState('')
  const [turns, setTurns] = useState<Turn[]>([])
  const [conversationId, setConversationId] = useState<string>()
  const [notice, setNotice] = useState('')
  const send = useAction(async () => {
    let versionId = selected
    if (versionId === DRAFT) {
      const v = await ok(api.client.POST('/bots/{id}/versions', { params: { path: { id: bot.id } }, body: { note: 'Draft tested in the dashboard' } }))
      versionId = v.id
      setChoice(v.id)
      setNotice(`The draft was frozen as v${v.number} (not published) to test it.`)
      onVersionCreated()
    }
    const reply = await ok(
      api.client.POST('/bots/{id}/messages', {
        params: { path: { id: bot.id } },
        body: { content: text, version_id: versionId, ...(conversationId ? { conversation_id: conversationId } : { contact: { name: 'Dashboard test' } }) },
      }),
    )
    setTurns((t) => [...t, { question: text, reply }])
    setConversationId(reply.conversation_id)
    setText('')
  })
  return (
    <section class="panel" aria-labelledby="chat-title">
      <h2 id="chat-title">Test chat</h2>
      <p class="hint">Talk to a version before customers do. The exchange is saved as an inbox conversation.</p>
      <Field label="Version to test">
        {(id) => (
          <select id={id} value={selected} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
            {draftDiffers && <option value={DRAFT}>Draft (freezes a new unpublished version)</option>}
            {versions.map((v) => (
              <option value={v.id}>
                v{v.number}
                {v.live ? ' (live)' : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      {turns.length > 0 && (
        <ol aria-label="Test conversation" style={{ padding: 0, listStyle: 'none' }}>
          {turns.map((t) => (
            <li>
              <p style={{ margin: '0 2rem 0.5rem 0', padding: '0.5rem 0.75rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: '#fff', overflowWrap: 'anywhere' }}>
                <Badge tone="info">You (as the customer)</Badge> {t.question}
              </p>
              <ReplyView reply={t.reply} />
            </li>
          ))}
        </ol>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (text.trim()) void send.run()
        }}
      >
        <Field label="Message to the bot">
          {(id) => <textarea id={id} rows={2} maxLength={4000} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
        </Field>
        <div class="form-actions">
          <button type="submit" class="primary" disabled={send.pending || !text.trim() || bot.status === 'archived'}>
            {send.pending ? 'Waiting for the bot…' : 'Send to bot'}
          </button>
          {turns.length > 0 && (
            <button type="button" onClick={() => (setTurns([]), setConversationId(undefined), setNotice(''))}>
              New test conversation
            </button>
          )}
        </div>
      </form>
      {send.error && <ProblemView problem={send.error} />}
      {notice && !send.error && <Notice tone="info">{notice}</Notice>}
    </section>
  )
}
