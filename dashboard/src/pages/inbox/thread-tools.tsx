import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { formatTime, Notice, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useShortcuts } from '../../ui/shortcuts.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Conversation } from './inbox-shared.js'
import { SnoozeDialog } from './snooze.js'
import { t } from '../../i18n/index.js'

/**
 * The open conversation's keyboard side: e resolves, a assigns it to you, s opens the snooze dialog,
 * r moves to the reply box; and the Snooze button with its dialog. What a shortcut did is announced.
 */
export function ThreadTools({ conv, onChanged }: { conv: Conversation; onChanged: (c: Conversation) => void }) {
  const { api, membership } = useWorkspace()
  const [snoozing, setSnoozing] = useState(false)
  const [notice, setNotice] = useState('')
  const path = { params: { path: { id: conv.id } } }
  const resolve = useAction(async () => {
    onChanged(await ok(api.client.POST('/inbox/conversations/{id}/resolve', path)))
    setNotice(t('inbox.keys.resolved'))
  })
  const assignMe = useAction(async () => {
    onChanged(await ok(api.client.POST('/inbox/conversations/{id}/assign', { ...path, body: { assignee_id: membership.member_id } })))
    setNotice(t('inbox.keys.assigned'))
  })
  useShortcuts([
    { key: 'e', label: 'Resolve', run: () => conv.status !== 'resolved' && !resolve.pending && void resolve.run() },
    { key: 'a', label: 'Assign to me', run: () => conv.assignee_id !== membership.member_id && !assignMe.pending && void assignMe.run() },
    { key: 's', label: 'Snooze', run: () => conv.status !== 'resolved' && setSnoozing(true) },
    {
      key: 'r',
      label: 'Reply',
      run: () => {
        const box = document.getElementById('reply-text') as HTMLTextAreaElement | null
        box?.focus()
        box?.scrollIntoView({ block: 'center' })
      },
    },
  ])
  const problem = resolve.error ?? assignMe.error
  return (
    <div class="thread-tools">
      <div class="form-actions" style={{ marginTop: 0, alignItems: 'center' }}>
        {/* A resolved conversation is reopened before it can be snoozed (the API's state machine). */}
        <button type="button" onClick={() => setSnoozing(true)} aria-keyshortcuts="s" disabled={conv.status === 'resolved'}>
          {t('inbox.snooze.button')}
        </button>
        {conv.status === 'snoozed' && conv.snoozed_until && <span class="hint">{t('inbox.snooze.snoozedUntil', { time: formatTime(conv.snoozed_until) })}</span>}
      </div>
      <SnoozeDialog
        conv={conv}
        open={snoozing}
        onClose={() => setSnoozing(false)}
        onSnoozed={(c, until) => {
          setSnoozing(false)
          onChanged(c)
          setNotice(t('inbox.snooze.done', { time: formatTime(until.toISOString()) }))
        }}
      />
      {problem && <ProblemView problem={problem} />}
      {notice && !problem && <Notice>{notice}</Notice>}
    </div>
  )
}
