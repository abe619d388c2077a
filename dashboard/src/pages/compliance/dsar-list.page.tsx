import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Empty, Field, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { DSAR_STATUSES, DSAR_TYPES, DsarStatusBadge, label, subjectText, type Dsar, type DsarStatus, type DsarType } from './compliance.shared.js'
import { DsarForm } from './dsar-form.js'
import { t } from '../../i18n/index.js'

/** /dashboard/compliance/dsar: data-subject requests (access, erasure, rectification) and a new one. */
export default function DsarList() {
  const [status, setStatus] = useState<DsarStatus | ''>('')
  const [type, setType] = useState<DsarType | ''>('')
  const list = usePaged((api, cursor) => ok(api.client.GET('/compliance/dsar', { params: { query: { cursor, limit: 20, status: status || undefined, type: type || undefined } } })), [status, type])
  return (
    <Page title={t('compliance.dsarList.dataSubjectRequests')}>
      <div class="split dsar-split">
        <DsarForm />
        <section aria-labelledby="dsar-requests">
          <h2 id="dsar-requests" class="section-title">
            {t('compliance.dsarList.requests')}
          </h2>
          <div class="filters" role="search" aria-label={t('compliance.dsarList.filterRequests')}>
            <Field label={t('compliance.dsarDetail.status')}>
              {(id) => (
                <select id={id} value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as DsarStatus | '')}>
                  <option value="">{t('compliance.dsarList.anyStatus')}</option>
                  {DSAR_STATUSES.map((s) => (
                    <option value={s}>{label(s)}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('compliance.dsarList.type')}>
              {(id) => (
                <select id={id} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as DsarType | '')}>
                  <option value="">{t('compliance.dsarList.anyType')}</option>
                  {DSAR_TYPES.map((s) => (
                    <option value={s}>{label(s)}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <PagedList list={list} emptyView={<Empty title={t('compliance.dsarList.noRequests')}>{t('compliance.dsarList.requestsYouCreateAppearHere')}</Empty>}>
            {(rows) => (
              <Table<Dsar>
                caption={t('compliance.dsarList.dataSubjectRequests')}
                rows={rows}
                rowKey={(d) => d.id}
                columns={[
                  { label: t('compliance.dsarDetail.subject'), render: (d) => <a href={`/dashboard/compliance/dsar/${d.id}`}>{subjectText(d.subject)}</a> },
                  { label: t('compliance.dsarList.type'), render: (d) => label(d.type) },
                  {
                    label: t('compliance.dsarDetail.status'),
                    render: (d) => (
                      <>
                        <DsarStatusBadge status={d.status} /> {d.overdue && <Badge tone="bad">{t('compliance.dsarDetail.overdue')}</Badge>}
                      </>
                    ),
                  },
                  { label: t('compliance.dsarDetail.due'), render: (d) => <Time iso={d.due_at} /> },
                  { label: t('compliance.dsarDetail.created'), render: (d) => <Time iso={d.created_at} /> },
                ]}
              />
            )}
          </PagedList>
        </section>
      </div>
    </Page>
  )
}
