import { useRoute } from 'preact-iso'
import { ok, type Api } from '../../api/client.js'
import { Async, Badge, Notice, Page, Table, Time } from '../../ui/components.js'
import { usePoll, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DsarStatusBadge, label, subjectText, title, type Dsar } from './compliance.shared.js'
import { DsarExport } from './dsar-export.js'
import { statusLabel, t } from '../../i18n/index.js'

type Progress = Dsar['progress'][number]
const records = (p: Progress) =>
  Object.entries(p.records)
    .map(([k, n]) => `${label(k)}: ${n}`)
    .join(', ') || '—'

/** /dashboard/compliance/dsar/:id: the request's status, progress per module, and its export. */
export default function DsarDetail() {
  const { params, query } = useRoute()
  const { api } = useWorkspace()
  const load = (a: Api) => ok(a.client.GET('/compliance/dsar/{id}', { params: { path: { id: params.id } } }))
  const dsar = useResource(load, [params.id])
  const busy = dsar.data ? dsar.data.status === 'received' || dsar.data.status === 'in_progress' || dsar.data.export.status === 'pending' : false
  // Followed while the job works on it, 1.5 s after each answer.
  usePoll(busy, async () => dsar.set(await load(api)), 1500)
  return (
    <Page title={t('compliance.dsarDetail.dataSubjectRequest')}>
      <p>
        <a href="/dashboard/compliance/dsar">{t('compliance.dsarDetail.allRequests')}</a>
      </p>
      {query.created && <Notice>{t('compliance.dsarDetail.requestCreatedItIsProcessed')}</Notice>}
      <Async loading={dsar.loading} error={dsar.error} data={dsar.data} onRetry={dsar.reload}>
        {(d) => (
          <>
            <section class="panel" aria-labelledby="dsar-facts">
              <h2 id="dsar-facts">{t('compliance.dsarDetail.typeRequest', { type: title(d.type) })}</h2>
              <dl class="facts">
                <dt>{t('compliance.dsarDetail.status')}</dt>
                <dd data-testid="dsar-status">
                  <DsarStatusBadge status={d.status} /> {d.overdue && <Badge tone="bad">{t('compliance.dsarDetail.overdue')}</Badge>}
                </dd>
                <dt>{t('compliance.dsarDetail.subject')}</dt>
                <dd class="wrap">{subjectText(d.subject)}</dd>
                {Object.keys(d.changes).length > 0 && (
                  <>
                    <dt>{t('compliance.dsarDetail.corrections')}</dt>
                    <dd class="wrap">
                      {Object.entries(d.changes)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(', ')}
                    </dd>
                  </>
                )}
                <dt>{t('compliance.dsarDetail.recordsFound')}</dt>
                <dd>{d.records_found}</dd>
                <dt>{t('compliance.dsarDetail.created')}</dt>
                <dd>
                  <Time iso={d.created_at} />
                </dd>
                <dt>{t('compliance.dsarDetail.due')}</dt>
                <dd>
                  <Time iso={d.due_at} />
                </dd>
                <dt>{t('compliance.dsarDetail.completed')}</dt>
                <dd>
                  <Time iso={d.completed_at} />
                </dd>
                {d.notes && (
                  <>
                    <dt>{t('compliance.dsarDetail.notes')}</dt>
                    <dd class="wrap">{d.notes}</dd>
                  </>
                )}
                <dt>{t('compliance.auditLog.requestId')}</dt>
                <dd>
                  <code>{d.id}</code>
                </dd>
              </dl>
            </section>
            <section aria-labelledby="dsar-progress" class="dsar-progress">
              <h2 id="dsar-progress" class="section-title">
                {t('compliance.dsarDetail.progressByModule')}
              </h2>
              {d.progress.length === 0 ? (
                <p class="muted">{t('compliance.dsarDetail.notStartedYet')}</p>
              ) : (
                <Table<Progress>
                  caption={t('compliance.dsarDetail.progressByModule')}
                  rows={d.progress}
                  rowKey={(p) => p.module}
                  columns={[
                    { label: t('compliance.dsarDetail.module'), render: (p) => p.module },
                    { label: t('compliance.dsarDetail.status'), render: (p) => <Badge tone={p.status === 'done' ? 'good' : p.status === 'failed' ? 'bad' : 'info'}>{statusLabel(p.status)}</Badge> },
                    { label: t('compliance.dsarDetail.records'), render: records },
                    { label: t('compliance.dsarDetail.deleted'), class: 'num', render: (p) => p.deleted ?? '—' },
                    { label: t('compliance.dsarDetail.anonymised'), class: 'num', render: (p) => p.anonymised ?? '—' },
                    { label: t('compliance.dsarDetail.error'), render: (p) => p.error ?? '' },
                  ]}
                />
              )}
            </section>
            <DsarExport dsar={d} onChange={dsar.set} />
          </>
        )}
      </Async>
    </Page>
  )
}
