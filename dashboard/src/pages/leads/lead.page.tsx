import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Empty, Field, Notice, Page, PagedList, ProblemView, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Lead, LeadActivity } from './common.js'
import { LeadActions } from './lead-actions.js'
import { ActivityItem, CrmSync, ScoreFactors, StatusChange } from './lead-panels.js'
import { Qualify } from './qualify.js'
import { t } from '../../i18n/index.js'

type Manual = 'note' | 'email' | 'call' | 'meeting' | 'task'

/** /dashboard/leads/:id: a lead (edit, delete), its score factors, status, BANT qualification, CRM sync and activities. */
export default function LeadPage() {
  const { id } = useRoute().params as { id: string }
  const { api } = useWorkspace()
  const lead = useResource((a) => ok(a.client.GET('/leads/{id}', { params: { path: { id } } })), [id])
  const acts = usePaged<LeadActivity>((a, cursor) => ok(a.client.GET('/leads/{id}/activities', { params: { path: { id }, query: { cursor } } })), [id])
  const changed = (l: Lead) => {
    lead.set(l)
    acts.reload()
  }
  const [type, setType] = useState<Manual>('note')
  const [subject, setSubject] = useState('')
  const [body, setBody] = useState('')
  const [recorded, setRecorded] = useState(false)
  const record = useAction(async () => {
    await ok(api.client.POST('/leads/{id}/activities', { params: { path: { id } }, body: { type, ...(subject ? { subject } : {}), ...(body ? { body } : {}) } }))
    setSubject('')
    setBody('')
    setRecorded(true)
    changed(await ok(api.client.GET('/leads/{id}', { params: { path: { id } } })))
  })
  return (
    <Page title={lead.data ? (lead.data.name ?? lead.data.email ?? lead.data.id) : t('leads.lead.lead')} actions={lead.data && <LeadActions lead={lead.data} onChanged={changed} />}>
      <p>
        <a href="/dashboard/leads">{t('leads.lead.allLeads')}</a>
      </p>
      <Async loading={lead.loading} error={lead.error} data={lead.data} onRetry={lead.reload}>
        {(l: Lead) => (
          <>
            <section class="panel" aria-label={t('leads.lead.contact')}>
              <dl class="facts">
                <dt>{t('leads.leadForm.email')}</dt>
                <dd>{l.email ?? '—'}</dd>
                <dt>{t('leads.leadForm.phone')}</dt>
                <dd>{l.phone ?? '—'}</dd>
                <dt>{t('leads.leadForm.company')}</dt>
                <dd>{l.company ?? '—'}</dd>
                <dt>{t('leads.lead.title')}</dt>
                <dd>{l.title ?? '—'}</dd>
                <dt>{t('leads.leadForm.source')}</dt>
                <dd>
                  {l.source.replace('_', ' ')}
                  {l.source_id && (
                    <>
                      {' '}
                      <code>{l.source_id}</code>
                    </>
                  )}
                </dd>
                <dt>{t('leads.leadForm.tags')}</dt>
                <dd>{l.tags.join(', ') || '—'}</dd>
                <dt>{t('leads.lead.created')}</dt>
                <dd>
                  <Time iso={l.created_at} />
                </dd>
              </dl>
            </section>
            <div class="split">
              <ScoreFactors lead={l} />
              <div>
                <StatusChange lead={l} onChanged={changed} />
                <CrmSync lead={l} onChanged={changed} />
              </div>
            </div>
            <Qualify lead={l} onChanged={changed} />
          </>
        )}
      </Async>
      <section aria-labelledby="acts-title">
        <h2 id="acts-title">{t('leads.lead.activities')}</h2>
        <form
          class="panel"
          aria-label={t('leads.lead.recordAnActivity')}
          onSubmit={(e) => {
            e.preventDefault()
            setRecorded(false)
            void record.run()
          }}
        >
          <div class="filters">
            <Field label={t('leads.lead.type')}>
              {(fid) => (
                <select id={fid} value={type} onChange={(e) => setType(e.currentTarget.value as Manual)}>
                  {(['note', 'email', 'call', 'meeting', 'task'] as const).map((t) => (
                    <option value={t}>{t}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('leads.lead.subject')}>{(fid) => <input id={fid} value={subject} onInput={(e) => setSubject(e.currentTarget.value)} />}</Field>
          </div>
          <Field label={t('leads.lead.details')}>{(fid) => <textarea id={fid} value={body} onInput={(e) => setBody(e.currentTarget.value)} />}</Field>
          {record.error && <ProblemView problem={record.error} />}
          {recorded && <Notice>{t('leads.lead.activityRecorded')}</Notice>}
          <div class="form-actions">
            <button type="submit" disabled={record.pending || (!subject.trim() && !body.trim())}>
              {t('leads.lead.recordActivity')}
            </button>
          </div>
        </form>
        <PagedList list={acts} emptyView={<Empty title={t('leads.lead.noActivityYet')} />}>
          {(rows) => (
            <ol class="timeline lead-activities" aria-label={t('leads.lead.activitiesNewestFirst')}>
              {rows.map((a) => (
                <ActivityItem key={a.id} a={a} />
              ))}
            </ol>
          )}
        </PagedList>
      </section>
    </Page>
  )
}
