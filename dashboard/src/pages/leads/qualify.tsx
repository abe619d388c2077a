import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Field, FormActions, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead } from './common.js'
import { StatusBadge } from './common.js'

const CRITERIA = [
  { key: 'budget', label: 'Budget', hint: 'e.g. "$20k this year"' },
  { key: 'authority', label: 'Authority', hint: 'e.g. "signs off herself"' },
  { key: 'need', label: 'Need', hint: 'e.g. "replace our helpdesk"' },
  { key: 'timeline', label: 'Timeline', hint: 'e.g. "go-live next quarter"' },
] as const
type Key = (typeof CRITERIA)[number]['key']
const SOURCE: Record<string, string> = { message: 'customer message', answer: 'your answer', lead: "the lead's title" }

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
    const given = Object.fromEntries(Object.entries(answers).filter(([, v]) => v.trim()).map(([k, v]) => [k, v.trim()]))
    const next = await ok(api.client.POST('/leads/{id}/qualify', { params: { path: { id: lead.id } }, body: { apply, ...(Object.keys(given).length ? { answers: given } : {}) } }))
    const q = next.qualification
    setDone(q ? `Evaluated: ${q.score}/100, recommended ${q.recommended_status}${apply ? (q.applied ? ', applied.' : ', not applied (the status machine does not allow that move).') : '.'}` : 'Evaluated.')
    onChanged(next)
  })
  const q = lead.qualification
  return (
    <section class="panel" aria-labelledby="bant-title">
      <h2 id="bant-title">Qualification (BANT)</h2>
      {q ? (
        <div data-testid="qualification">
          <p>
            Score <Badge tone={q.score >= 75 ? 'good' : q.score >= 50 ? 'warn' : 'neutral'}>{q.score}/100</Badge> · recommended <StatusBadge status={q.recommended_status} /> · {q.applied ? 'applied' : 'not applied'} · <Time iso={q.evaluated_at} />
          </p>
          <ul class="bant" aria-label="BANT criteria">
            {q.criteria.map((c) => (
              <li>
                <strong>{c.name}</strong> <Badge tone={c.met ? 'good' : 'neutral'}>{c.met ? 'met' : 'not met'}</Badge>
                {c.evidence.map((e) => (
                  <blockquote>
                    “{e.excerpt}” <span class="hint">— {SOURCE[e.source] ?? e.source}</span>
                  </blockquote>
                ))}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>Not evaluated yet.</p>
      )}
      <form
        aria-label="Qualify this lead"
        onSubmit={(e) => {
          e.preventDefault()
          setDone(undefined)
          void qualify.run()
        }}
      >
        <p class="hint">The customer's messages are read; add what you learned (optional). Each answer counts as met.</p>
        <div class="lead-grid">
          {CRITERIA.map((c) => (
            <Field label={c.label} hint={c.hint}>
              {(id, hint) => <input id={id} aria-describedby={hint} value={answers[c.key]} onInput={(e) => setAnswers((a) => ({ ...a, [c.key]: e.currentTarget.value }))} />}
            </Field>
          ))}
        </div>
        <label class="lead-check">
          <input type="checkbox" checked={apply} onChange={(e) => setApply(e.currentTarget.checked)} /> Move the lead to the recommended status
        </label>
        {qualify.error && <ProblemView problem={qualify.error} />}
        {done && <Notice>{done}</Notice>}
        <FormActions action={qualify} label="Qualify" busyLabel="Evaluating…" showProblem={false} />
      </form>
    </section>
  )
}
