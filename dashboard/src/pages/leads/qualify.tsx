import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Field, FormActions, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead } from './common.js'
import { StatusBadge } from './common.js'
import { type MessageKey, statusLabel, t } from '../../i18n/index.js'

const CRITERIA = [
  { key: 'budget', label: 'leads.qualify.budget', hint: 'leads.qualify.budgetHint' },
  { key: 'authority', label: 'leads.qualify.authority', hint: 'leads.qualify.authorityHint' },
  { key: 'need', label: 'leads.qualify.need', hint: 'leads.qualify.needHint' },
  { key: 'timeline', label: 'leads.qualify.timeline', hint: 'leads.qualify.timelineHint' },
] as const
type Key = (typeof CRITERIA)[number]['key']
const SOURCE: Record<string, MessageKey> = { message: 'leads.qualify.sourceMessage', answer: 'leads.qualify.sourceAnswer', lead: 'leads.qualify.sourceLead' }

/**
 * BANT qualification: what a salesperson learned (each answer counts as met), evaluated with the customer's
 * messages; the result is the lead's last qualification: 25 per criterion met, the recommended status, whether
 * it was applied, and the evidence for each criterion.
 */
export function Qualify({ lead, onChanged }: { lead: Lead; onChanged: (l: Lead) => void }) {
  const { api } = useWorkspace()
  const [answers, setAnswers] = useState<Record<Key, string>>({ budget: '', authority: '', need: '', timeline: '' })
  const [apply, setApply] = useState(false)
  const [done, setDone] = useState<string>()
  const qualify = useAction(async () => {
    const given = Object.fromEntries(
      Object.entries(answers)
        .filter(([, v]) => v.trim())
        .map(([k, v]) => [k, v.trim()]),
    )
    const next = await ok(api.client.POST('/leads/{id}/qualify', { params: { path: { id: lead.id } }, body: { apply, ...(Object.keys(given).length ? { answers: given } : {}) } }))
    const q = next.qualification
    setDone(
      q
        ? t('leads.qualify.evaluatedScore100RecommendedRecommendedstatus', {
            score: q.score,
            recommendedStatus: statusLabel(q.recommended_status),
            value: apply ? (q.applied ? t('leads.qualify.applied') : t('leads.qualify.notAppliedWhy')) : '.',
          })
        : t('leads.qualify.evaluated'),
    )
    onChanged(next)
  })
  const q = lead.qualification
  return (
    <section class="panel" aria-labelledby="bant-title">
      <h2 id="bant-title">{t('leads.qualify.qualificationBant')}</h2>
      {q ? (
        <div data-testid="qualification">
          <p>
            {t('leads.leadPanels.score')} <Badge tone={q.score >= 75 ? 'good' : q.score >= 50 ? 'warn' : 'neutral'}>{q.score}/100</Badge> {t('leads.qualify.recommended')}{' '}
            <StatusBadge status={q.recommended_status} /> · {q.applied ? 'applied' : t('leads.qualify.notApplied')} · <Time iso={q.evaluated_at} />
          </p>
          <ul class="bant" aria-label={t('leads.qualify.bantCriteria')}>
            {q.criteria.map((c) => (
              <li>
                <strong>{c.name}</strong> <Badge tone={c.met ? 'good' : 'neutral'}>{c.met ? 'met' : t('leads.qualify.notMet')}</Badge>
                {c.evidence.map((e) => (
                  <blockquote>
                    “{e.excerpt}” <span class="hint">— {SOURCE[e.source] ? t(SOURCE[e.source]) : e.source}</span>
                  </blockquote>
                ))}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>{t('leads.qualify.notEvaluatedYet')}</p>
      )}
      <form
        aria-label={t('leads.qualify.qualifyThisLead')}
        onSubmit={(e) => {
          e.preventDefault()
          setDone(undefined)
          void qualify.run()
        }}
      >
        <p class="hint">{t('leads.qualify.theCustomerSMessagesAre')}</p>
        <div class="lead-grid">
          {CRITERIA.map((c) => (
            <Field label={t(c.label)} hint={t(c.hint)}>
              {(id, hint) => <input id={id} aria-describedby={hint} value={answers[c.key]} onInput={(e) => setAnswers((a) => ({ ...a, [c.key]: e.currentTarget.value }))} />}
            </Field>
          ))}
        </div>
        <label class="lead-check">
          <input type="checkbox" checked={apply} onChange={(e) => setApply(e.currentTarget.checked)} /> {t('leads.qualify.moveTheLeadToThe')}
        </label>
        {qualify.error && <ProblemView problem={qualify.error} />}
        {done && <Notice>{done}</Notice>}
        <FormActions action={qualify} label={t('leads.qualify.qualify')} busyLabel={t('leads.qualify.evaluating')} showProblem={false} />
      </form>
    </section>
  )
}
