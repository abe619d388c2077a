import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Field, Notice, Page, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { label, title, type RetentionPolicies } from './compliance.shared.js'
import { t } from '../../i18n/index.js'

type Values = Record<string, string>
type Policy = number | 'keep'

const valuesOf = (p: RetentionPolicies): Values =>
  Object.fromEntries(p.classes.filter((c) => !c.fixed).map((c) => [c.name, p.policies[c.name] === 'keep' || p.policies[c.name] == null ? '' : String(p.policies[c.name])]))
const policyText = (v: Policy | undefined) => (v === undefined || v === 'keep' ? t('compliance.retention.keep') : t('compliance.retention.days', { count: v }))

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
    <Page title={t('compliance.index.retention')}>
      {readOnly && <Notice tone="neutral">{t('compliance.retention.onlyOwnersAndAdminsChange')}</Notice>}
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
              <h2 id="retention-policies">{t('compliance.retention.policies')}</h2>
              <p class="hint">{t('compliance.retention.daysToKeepEachClass')}</p>
              <div class="retention-grid">
                {p.classes.map((c) =>
                  c.fixed ? (
                    <div class="field" key={c.name}>
                      <span class="field-label">{title(c.name)}</span>
                      <p class="hint">{t('compliance.retention.descriptionFixedNotConfigurable', { description: c.description })}</p>
                    </div>
                  ) : (
                    <Field
                      key={c.name}
                      label={t('compliance.retention.nameDays', { name: title(c.name) })}
                      hint={`${c.description} ${t('compliance.retention.minimumDays', { count: c.minimum_days })}`}
                    >
                      {(id, hint) => (
                        <input
                          id={id}
                          type="number"
                          min={c.minimum_days}
                          step={1}
                          inputMode="numeric"
                          placeholder={t('compliance.retention.keep')}
                          aria-describedby={hint}
                          value={values[c.name] ?? ''}
                          onInput={edit(c.name)}
                        />
                      )}
                    </Field>
                  ),
                )}
              </div>
              {problem && <ProblemView problem={problem} />}
              {saved && <Notice>{t('compliance.retention.retentionPoliciesSaved')}</Notice>}
              <div class="form-actions">
                <button type="submit" disabled={dry.pending || readOnly}>
                  {dry.pending ? t('compliance.retention.counting') : t('compliance.retention.previewDeletions')}
                </button>
                <button type="button" class="primary" disabled={save.pending || readOnly} onClick={() => void save.run()}>
                  {save.pending ? t('compliance.retention.saving') : t('compliance.retention.savePolicies')}
                </button>
              </div>
            </form>
            {preview?.dry_run && (
              <section class="panel" aria-labelledby="retention-preview">
                <h2 id="retention-preview">{t('compliance.retention.previewWhatThesePoliciesWould')}</h2>
                <Notice tone="info">{t('compliance.retention.dryRunNothingWasSaved')}</Notice>
                <Table<[string, number]>
                  caption={t('compliance.retention.recordsEachClassWouldDelete')}
                  rows={Object.entries(preview.dry_run)}
                  rowKey={([k]) => k}
                  columns={[
                    { label: t('compliance.retention.class'), render: ([k]) => label(k) },
                    { label: t('compliance.retention.policy'), render: ([k]) => policyText(preview.policies[k]) },
                    { label: t('compliance.retention.wouldDelete'), class: 'num', render: ([, n]) => <span data-testid="dry-run-count">{n}</span> },
                  ]}
                />
              </section>
            )}
            <section class="panel" aria-labelledby="retention-last">
              <h2 id="retention-last">{t('compliance.retention.lastEnforcement')}</h2>
              {p.last_run ? (
                <>
                  <p>
                    {t('compliance.retention.finished')} <Time iso={p.last_run.finished_at} />.
                  </p>
                  <ul>
                    {Object.entries(p.last_run.deleted).map(([k, n]) => (
                      <li>{t('compliance.retention.kNDeleted', { k: label(k), n })}</li>
                    ))}
                  </ul>
                </>
              ) : (
                <p class="muted">{t('compliance.retention.policiesHaveNotBeenEnforced')}</p>
              )}
            </section>
          </>
        )}
      </Async>
    </Page>
  )
}
