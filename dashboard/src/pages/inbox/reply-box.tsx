import { useRef, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { useDraft } from './drafts.js'
import type { AiDraft, Conversation, Message } from './inbox-shared.js'
import { useTemplatePicker } from './reply-tools.js'
import { TemplatePicker } from './template-picker.js'
import { t } from '../../i18n/index.js'

function DraftSources({ draft }: { draft: AiDraft }) {
  return (
    <section class="panel" aria-labelledby="draft-sources-title" style={{ marginTop: '0.75rem', background: 'var(--panel-muted)' }}>
      <h3 id="draft-sources-title" style={{ fontSize: '1rem', marginTop: 0 }}>
        AI draft sources
      </h3>
      <p style={{ margin: '0 0 0.5rem' }}>
        {draft.grounded ? <Badge tone="good">Grounded</Badge> : <Badge tone="warn">Not grounded: check before sending</Badge>} confidence{' '}
        {draft.confidence === null ? 'not given' : `${Math.round(draft.confidence * 100)}%`} · {draft.provider} / {draft.model}
      </p>
      {draft.sources.length === 0 ? (
        <p style={{ margin: 0 }}>No sources: nothing in the templates or knowledge matched the customer's question.</p>
      ) : (
        <ol aria-label="Sources of the draft" style={{ margin: 0, paddingLeft: '1.3rem' }}>
          {draft.sources.map((s) => (
            <li style={{ marginBottom: '0.4rem', overflowWrap: 'anywhere' }}>
              <Badge>{s.kind}</Badge> <strong>{s.title ?? s.id}</strong> <small>score {s.score.toFixed(2)}</small>
              <br />
              <q>{s.excerpt}</q>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The reply box: write (or insert an AI draft and edit it), then send to the customer or as a private note. */
export function ReplyBox({
  conv,
  onSent,
  onSending,
  onFailed,
}: {
  conv: Conversation
  onSent: (m: Message, temp?: string) => void
  /** Called as a reply goes out (the thread shows it at once); returns its temporary id. */
  onSending?: (content: string, isPrivate: boolean) => string
  /** The reply `onSending` announced was not stored. */
  onFailed?: (temp: string) => void
}) {
  const { api, membership } = useWorkspace()
  const { text, setText, isPrivate, setPrivate, clear, restored } = useDraft(conv.id)
  const [draft, setDraft] = useState<AiDraft>()
  const [notice, setNotice] = useState('')
  // What the box held before the last AI draft went in, for Undo.
  const [before, setBefore] = useState<string>()
  const box = useRef<HTMLTextAreaElement>(null)
  const path = { params: { path: { id: conv.id } } }
  const picker = useTemplatePicker(conv, text, (t) => {
    setText(t)
    box.current?.focus()
  })

  const insertDraft = useAction(async () => {
    setNotice('')
    const d = await ok(api.client.POST('/inbox/conversations/{id}/ai-draft', { ...path, body: {} }))
    setDraft(d)
    // Typed text is never replaced: the draft goes below it, and Undo takes it out again.
    const typed = box.current?.value ?? text
    setBefore(typed)
    setText(typed.trim() ? `${typed.replace(/\s+$/, '')}\n\n${d.content}` : d.content)
    setNotice(typed.trim() ? t('inbox.draft.aiBelow') : t('inbox.draft.aiInserted'))
    box.current?.focus()
  })
  const undoDraft = () => {
    setText(before ?? '')
    setBefore(undefined)
    setDraft(undefined)
    setNotice(t('inbox.draft.undone'))
    box.current?.focus()
  }
  const send = useAction(async () => {
    const temp = onSending?.(text, isPrivate)
    const m = await ok(
      api.client.POST('/inbox/conversations/{id}/messages', {
        ...path,
        body: { content: text, direction: 'outbound', private: isPrivate, author: { type: 'member', id: membership.member_id } },
      }),
    ).catch((err: unknown) => {
      if (temp) onFailed?.(temp)
      throw err
    })
    clear()
    setDraft(undefined)
    setBefore(undefined)
    setNotice(isPrivate ? 'Private note added.' : 'Reply sent.')
    onSent(m, temp)
  })
  const problem = insertDraft.error ?? send.error

  return (
    <form
      class="reply-box"
      aria-label="Write a reply"
      style={{ marginTop: '1rem' }}
      onSubmit={(e) => {
        e.preventDefault()
        if (text.trim()) void send.run()
      }}
    >
      <div class="field">
        <label for="reply-text">{isPrivate ? 'Private note' : 'Reply'}</label>
        <textarea
          id="reply-text"
          ref={box}
          value={text}
          rows={5}
          maxLength={10000}
          aria-describedby="reply-hint"
          {...picker.boxProps}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (picker.onKeyDown(e)) return
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              if (text.trim() && !send.pending) void send.run()
            }
          }}
        />
        <p class="hint" id="reply-hint">
          {restored ? `${t('inbox.draft.kept')} ` : ''}
          {t('inbox.draft.hint')}
        </p>
        {picker.open && <TemplatePicker {...picker.listProps} />}
      </div>
      <label style={{ display: 'inline-flex', gap: '0.4rem', alignItems: 'center' }}>
        <input type="checkbox" checked={isPrivate} onChange={(e) => setPrivate((e.target as HTMLInputElement).checked)} /> Private note (only the team sees it)
      </label>
      <div class="form-actions">
        <button type="button" onClick={() => insertDraft.run()} disabled={insertDraft.pending}>
          {insertDraft.pending ? 'Drafting…' : 'Insert AI draft'}
        </button>
        {before !== undefined && (
          <button type="button" onClick={undoDraft}>
            {t('inbox.draft.undo')}
          </button>
        )}
        <button type="submit" class="primary" disabled={!text.trim() || send.pending}>
          {send.pending ? 'Sending…' : isPrivate ? 'Add note' : 'Send reply'}
        </button>
      </div>
      {problem && <ProblemView problem={problem} />}
      {notice && !problem && <Notice>{notice}</Notice>}
      {draft && <DraftSources draft={draft} />}
    </form>
  )
}
