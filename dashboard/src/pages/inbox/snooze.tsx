import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, formatTime, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Conversation } from './inbox-shared.js'
import { t } from '../../i18n/index.js'
import { localInput, snoozePresets } from './snooze-times.js'

/**
 * Snooze a conversation until a time (a preset or one chosen): it leaves the open list and a job wakes it
 * then (or the customer's next message does).
 */
export function SnoozeDialog({ conv, open, onClose, onSnoozed }: { conv: Conversation; open: boolean; onClose: () => void; onSnoozed: (c: Conversation, until: Date) => void }) {
  const { api } = useWorkspace()
  const [custom, setCustom] = useState(() => localInput(new Date(Date.now() + 3 * 3600_000)))
  const snooze = useAction(async (until: Date) => {
    const c = await ok(api.client.POST('/inbox/conversations/{id}/snooze', { params: { path: { id: conv.id } }, body: { until: until.toISOString() } }))
    onSnoozed(c, until)
  })
  return (
    <Dialog open={open} title={t('inbox.snooze.title')} onClose={onClose}>
      <p style={{ marginTop: 0 }}>{t('inbox.snooze.explain')}</p>
      <div class="form-actions" style={{ marginTop: 0 }}>
        {snoozePresets().map((p) => (
          <button type="button" disabled={snooze.pending} onClick={() => snooze.run(p.until)} title={formatTime(p.until.toISOString())}>
            {t(p.label)}
          </button>
        ))}
      </div>
      <form
        style={{ marginTop: '1rem' }}
        onSubmit={(e) => {
          e.preventDefault()
          const d = new Date(custom)
          if (!Number.isNaN(d.getTime())) void snooze.run(d)
        }}
      >
        <Field label={t('inbox.snooze.until')}>
          {(id) => <input id={id} type="datetime-local" value={custom} min={localInput(new Date())} onInput={(e) => setCustom((e.target as HTMLInputElement).value)} />}
        </Field>
        <button type="submit" class="primary" disabled={snooze.pending || !custom}>
          {snooze.pending ? t('inbox.snooze.busy') : t('inbox.snooze.submit')}
        </button>
      </form>
      {snooze.error && <ProblemView problem={snooze.error} />}
    </Dialog>
  )
}
