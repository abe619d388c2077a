import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Field, Notice, Page, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { label, title, type RetentionPolicies } from './compliance.shared.js'

type Values = Record<string, string>
type Policy = number | 'keep'

const valuesOf = (p: RetentionPolicies): Values => Object.fromEntries(p.classes.filter((c) => !c.fixed).map((c) => [c.name, p.policies[c.name] === 'keep' || p.policies[c.name] == null ? '' : String(p.policies[c.name])]))
const policyText = (v: Policy | undefined) => (v === undefined || v === 'keep' ? 'keep' : `${v} day${v === 1 ? '' : 's'}`)

/** /dashboard/compliance/retention: how long each data class is kept; a dry run shows what a change would delete before it is saved. */
export default function Retention() {
  const { api } = useWorkspace()
  // Changing retention (a preview included: it is a PATCH) is for owners and admins; members read it.
  const readOnly = !useIsAdmin()
  const current = useResource((a) => ok(a.client.GET('/compliance/retention')))
  const [values, setValues] = useState<Values>({})
  const [preview, setPreview] = useState<RetentionPolicies>()
  const [saved, setSaved] = useState(false)
  useEffect(() => {
    if (current.data) setValues(valuesOf(current.data))
  }, [current.data])
  const policies = (): Record<string, Policy> => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? 'keep' : Number(v)]))
  const patch = (dry_run: boolean) => ok(api.client.PATCH('/compliance/retention', { body: { policies: policies(), dry_run } }))
  const dry = useAction(async () => {
    setSaved(false)
    setPreview(await patch(true))
  })
  const save = useAction(async () => {
    const next = await patch(false)
    current.set(next)
    setPreview(undefined)
    setSaved(true)
  })
  const edit = (name: string) => (e: Event) => {
    setValues({ ...values, [name]: (e.target as HTMLInputElement).value })
    setPreview(undefined)
    setSaved(false)
  }
  const problem = dry.error ?? save.error
  return (
    <Page title="Retention">
      {readOnly && <Notice tone="neutral">Only owners and admins change retention policies; you can read them.</Notice>}
      <Async loading={current.loading} error={current.error} data={current.data} onRetry={current.reload}>
        {(p) => (
          <>
            <form
              class="panel"
              aria-labelledby="retention-policies"
              onSubmit={(e) => {
                e.preventDefault()
                void dry.run()
              }}
            >
              <h2 id="retention-policies">Policies</h2>
              <p class="hint">Days to keep each class of data; leave a field empty to keep it forever. Preview what a change would delete before you save it.</p>
              <div class="retention-grid">
                {p.classes.map((c) =>
                  c.fixed ? (
                    <div class="field" key={c.name}>
                      <span class="field-label">{title(c.name)}</span>
                      <p class="hint">{c.description} (fixed, not configurable)</p>
                    </div>
                  ) : (
                    <Field key={c.name} label={`${title(c.name)} (days)`} hint={`${c.description} Minimum ${c.minimum_days} day${c.minimum_days === 1 ? '' : 's'}.`}>
                      {(id, hint) => <input id={id} type="number" min={c.minimum_days} step={1} inputMode="numeric" placeholder="keep" aria-describedby={hint} value={values[c.name] ?? ''} onInput={edit(c.name)} />}
                    </Field>
                  ),
                )}
              </div>
              {problem && <ProblemView problem={problem} />}
              {saved && <Notice>Retention policies saved.</Notice>}
              <div class="form-actions">
                <button type="submit" disabled={dry.pending || readOnly}>
                  {dry.pending ? 'Counting…' : 'Preview deletions'}
                </button>
                <button type="button" class="primary" disabled={save.pending || readOnly} onClick={() => void save.run()}>
                  {save.pending ? 'Saving…' : 'Save policies'}
                </button>
              </div>
            </form>
            {preview?.dry_run && (
              <section class="panel" aria-labelledby="retention-preview">
                <h2 id="retention-preview">Preview: what these policies would delete now</h2>
                <Notice tone="info">Dry run: nothing was saved or deleted.</Notice>
                <Table<[string, number]>
                  caption="Records each class would delete now"
                  rows={Object.entries(preview.dry_run)}
                  rowKey={([k]) => k}
                  columns={[
                    { label: 'Class', render: ([k]) => label(k) },
                    { label: 'Policy', render: ([k]) => policyText(preview.policies[k]) },
                    { label: 'Would delete', class: 'num', render: ([, n]) => <span data-testid="dry-run-count">{n}</span> },
                  ]}
                />
              </section>
            )}
            <section class="panel" aria-labelledby="retention-last">
              <h2 id="retention-last">Last enforcement</h2>
              {p.last_run ? (
                <>
                  <p>
                    Finished <Time iso={p.last_run.finished_at} />.
                  </p>
                  <ul>
                    {Object.entries(p.last_run.deleted).map(([k, n]) => (
                      <li>
                        {label(k)}: {n} deleted
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                <p class="muted">Policies have not been enforced yet (the compliance worker runs every 10 minutes).</p>
              )}
            </section>
          </>
        )}
      </Async>
    </Page>
  )
}
