import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Evidence, EvidenceKind } from './compliance.shared.js'
import { t } from '../../i18n/index.js'

const DAY_MS = 86_400_000
const today = () => new Date().toISOString().slice(0, 10)

/**
 * The period as the API takes it, from dates read as UTC days like the daily reports: `from` is the first
 * day's midnight, `to` (exclusive) the midnight after the last day — or left out (now) when that is still to
 * come, so "up to today" is a report up to this moment rather than a 422 for a future end.
 */
function periodOf(from: string, last: string, now = Date.now()): { from?: string; to?: string } {
  const end = last ? Date.parse(`${last}T00:00:00Z`) + DAY_MS : undefined
  return {
    from: from ? new Date(`${from}T00:00:00Z`).toISOString() : undefined,
    to: end !== undefined && end <= now ? new Date(end).toISOString() : undefined,
  }
}

/** "Generate report": one report of a kind over a chosen period, made at once (trigger `manual`). */
export function GenerateEvidence({ kinds, onDone, onCancel }: { kinds: Record<EvidenceKind, string>; onDone: (e: Evidence) => void; onCancel: () => void }) {
  const { api } = useWorkspace()
  const [kind, setKind] = useState<EvidenceKind>('audit_chain')
  const [from, setFrom] = useState('')
  const [last, setLast] = useState('')
  const generate = useAction(async () => {
    onDone(await ok(api.client.POST('/compliance/evidence', { body: { kind, ...periodOf(from, last) } })))
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void generate.run()
      }}
    >
      <Field label={t('compliance.evidenceGenerate.reportKind')}>
        {(id) => (
          <select id={id} value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as EvidenceKind)}>
            {(Object.keys(kinds) as EvidenceKind[]).map((k) => (
              <option value={k}>{kinds[k]}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('compliance.evidenceGenerate.firstDayOptional')} hint={t('compliance.evidenceGenerate.utcEmpty30DaysBefore')}>
        {(id, hint) => <input id={id} type="date" max={today()} aria-describedby={hint} value={from} onInput={(e) => setFrom(e.currentTarget.value)} />}
      </Field>
      <Field label={t('compliance.evidenceGenerate.lastDayOptional')} hint={t('compliance.evidenceGenerate.utcIncludedEmptyOrToday')}>
        {(id, hint) => <input id={id} type="date" max={today()} aria-describedby={hint} value={last} onInput={(e) => setLast(e.currentTarget.value)} />}
      </Field>
      <FormActions action={generate} label={t('compliance.evidenceGenerate.generateReport')} busyLabel={t('compliance.evidenceGenerate.generating')} onCancel={onCancel} />
    </form>
  )
}
