import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { ApiProblem } from '../../api/problem.js'
import { Badge, Field, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Bot, BotReply, BotVersion } from './bots-shared.js'
import { statusLabel, t } from '../../i18n/index.js'

const DRAFT = 'draft'

interface Turn {
  question: string
  reply: BotReply
}

function ReplyView({ reply }: { reply: BotReply }) {
  return (
    <div style={{ margin: '0 0 0.75rem 2rem', padding: '0.5rem 0.75rem', border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: 'var(--bubble-outbound)' }}>
      <p style={{ margin: '0 0 0.25rem', display: 'flex', flexWrap: 'wrap', gap: '0.4rem', fontSize: '0.87rem' }}>
        <Badge tone="warn">{t('bots.botDetail.bot')}</Badge>
        {reply.grounded ? <Badge tone="good">{t('bots.testChat.grounded')}</Badge> : <Badge tone="neutral">{t('bots.testChat.notGrounded')}</Badge>}
        {reply.handoff && (
          <Badge tone="bad">
            {t('bots.testChat.handedToAPerson')}
            {reply.handoff_reason ? `: ${reply.handoff_reason}` : ''}
          </Badge>
        )}
        <span>
          {t('bots.testChat.confidence')} {reply.confidence === null ? '—' : `${Math.round(reply.confidence * 100)}%`}
        </span>
      </p>
      <p class="bot-answer" style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {reply.content}
      </p>
      {reply.citations.length > 0 && (
        <ol aria-label={t('bots.testChat.citations')} style={{ margin: '0.4rem 0 0', paddingLeft: '1.3rem', fontSize: '0.9rem' }}>
          {reply.citations.map((c) => (
            <li style={{ overflowWrap: 'anywhere' }}>
              <strong>{c.citation.title}</strong>: <q>{c.excerpt}</q>
            </li>
          ))}
        </ol>
      )}
      {reply.guardrails.length > 0 && (
        <ul aria-label={t('bots.testChat.guardrailsThatFired')} style={{ margin: '0.4rem 0 0', paddingLeft: '1.3rem', fontSize: '0.9rem' }}>
          {reply.guardrails.map((g) => (
            <li>
              {g.guardrail} ({g.stage}, {g.action}): {g.detail}
            </li>
          ))}
        </ul>
      )}
      {reply.tool_calls.length > 0 && (
        <p style={{ margin: '0.3rem 0 0', fontSize: '0.9rem' }}>
          {t('bots.testChat.toolsCalled')} {reply.tool_calls.map((call) => `${call.name} (${statusLabel(call.ok ? 'ok' : 'failed')})`).join(', ')}
        </p>
      )}
    </div>
  )
}

/**
 * A test chat with a version of the bot: by default the draft, frozen into a new (unpublished) version
 * first when it changed, so customers never see it. The exchange is a test (docs/bots.md "Testing a bot"):
 * it stays out of the inbox, events and integrations; the reply streams in as the engine writes it.
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
  const [streaming, setStreaming] = useState<{ question: string; text: string } | null>(null)
  const [notice, setNotice] = useState('')
  const send = useAction(async () => {
    let versionId = selected
    if (versionId === DRAFT) {
      const v = await ok(api.client.POST('/bots/{id}/versions', { params: { path: { id: bot.id } }, body: { note: t('bots.testChat.draftTestedInTheDashboard') } }))
      versionId = v.id
      setChoice(v.id)
      setNotice(t('bots.testChat.theDraftWasFrozenAs', { number: v.number }))
      onVersionCreated()
    }
    // A test exchange (test: true): kept with the bot, never in the inbox, events or integrations. The
    // reply streams: `delta` pieces show as they come, then `message` (the reply as sent) replaces them.
    const question = text
    setStreaming({ question, text: '' })
    let reply: BotReply | null = null
    try {
      await api.stream(
        `/bots/${encodeURIComponent(bot.id)}/messages/stream`,
        (e) => {
          const data = JSON.parse(e.data)
          if (e.event === 'delta') setStreaming((s) => (s ? { ...s, text: s.text + (data.text as string) } : s))
          else if (e.event === 'message') reply = data.reply as BotReply
          else if (e.event === 'error') throw new ApiProblem(data.status ?? 500, data, data.request_id ?? null)
        },
        new AbortController().signal,
        { content: question, version_id: versionId, test: true, ...(conversationId ? { conversation_id: conversationId } : {}) },
      )
    } finally {
      setStreaming(null)
    }
    const done = reply as BotReply | null
    if (!done) throw new ApiProblem(0, null, null)
    setTurns((t) => [...t, { question, reply: done }])
    setConversationId(done.conversation_id)
    setText('')
  })
  return (
    <section class="panel" aria-labelledby="chat-title">
      <h2 id="chat-title">{t('bots.testChat.testChat')}</h2>
      <p class="hint">{t('bots.testChat.talkToAVersionBefore')}</p>
      <Field label={t('bots.testChat.versionToTest')}>
        {(id) => (
          <select id={id} value={selected} onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}>
            {draftDiffers && <option value={DRAFT}>{t('bots.testChat.draftFreezesANewUnpublished')}</option>}
            {versions.map((v) => (
              <option value={v.id}>
                {t('bots.testChat.vNumber', { number: v.number })}
                {v.live ? t('bots.testChat.live') : ''}
              </option>
            ))}
          </select>
        )}
      </Field>
      {(turns.length > 0 || streaming) && (
        <ol aria-label={t('bots.testChat.testConversation')} style={{ padding: 0, listStyle: 'none' }}>
          {turns.map((turn) => (
            <li>
              <p
                style={{
                  margin: '0 2rem 0.5rem 0',
                  padding: '0.5rem 0.75rem',
                  border: '1px solid var(--line)',
                  borderRadius: 'var(--radius)',
                  background: 'var(--bubble-inbound)',
                  overflowWrap: 'anywhere',
                }}
              >
                <Badge tone="info">{t('bots.testChat.youAsTheCustomer')}</Badge> {turn.question}
              </p>
              <ReplyView reply={turn.reply} />
            </li>
          ))}
          {streaming && (
            <li>
              <p
                style={{
                  margin: '0 2rem 0.5rem 0',
                  padding: '0.5rem 0.75rem',
                  border: '1px solid var(--line)',
                  borderRadius: 'var(--radius)',
                  background: 'var(--bubble-inbound)',
                  overflowWrap: 'anywhere',
                }}
              >
                <Badge tone="info">{t('bots.testChat.youAsTheCustomer')}</Badge> {streaming.question}
              </p>
              <p
                class="bot-streaming"
                aria-live="polite"
                style={{ margin: '0 0 0.75rem 2rem', padding: '0.5rem 0.75rem', border: '1px dashed var(--line)', borderRadius: 'var(--radius)', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {streaming.text || '…'}
              </p>
            </li>
          )}
        </ol>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault()
          if (text.trim()) void send.run()
        }}
      >
        <Field label={t('bots.testChat.messageToTheBot')}>
          {(id) => <textarea id={id} rows={2} maxLength={4000} value={text} onInput={(e) => setText((e.target as HTMLTextAreaElement).value)} />}
        </Field>
        <div class="form-actions">
          <button type="submit" class="primary" disabled={send.pending || !text.trim() || bot.status === 'archived'}>
            {send.pending ? t('bots.testChat.waitingForTheBot') : t('bots.testChat.sendToBot')}
          </button>
          {turns.length > 0 && (
            <button type="button" onClick={() => (setTurns([]), setConversationId(undefined), setNotice(''))}>
              {t('bots.testChat.newTestConversation')}
            </button>
          )}
        </div>
      </form>
      {send.error && <ProblemView problem={send.error} />}
      {notice && !send.error && <Notice tone="info">{notice}</Notice>}
    </section>
  )
}
