import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Empty, Field, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { DSAR_STATUSES, DSAR_TYPES, DsarStatusBadge, label, subjectText, type Dsar, type DsarStatus, type DsarType } from './compliance.shared.js'
import { DsarForm } from './dsar-form.js'

/** /dashboard/compliance/dsar: data-subject requests (access, erasure, rectification) and a new one. */
export default function DsarList() {
  const [status, setStatus] = useState<DsarStatus | ''>('')
  const [type, setType] = useState<DsarType | ''>('')
  const list = usePaged(
    (api, cursor) => ok(api.client.GET('/compliance/dsar', { params: { query: { cursor, limit: 20, status: status || undefined, type: type || undefined } } })),
    [status, type],
  )
  return (
    <Page title="Data-subject requests">
      <div class="split dsar-split">
        <DsarForm />
        <section aria-labelledby="dsar-requests">
          <h2 id="dsar-requests" class="section-title">
            Requests
          </h2>
          <div class="filters" role="search" aria-label="Filter requests">
            <Field label="Status">
              {(id) => (
                <select id={id} value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as DsarStatus | '')}>
                  <option value="">Any status</option>
                  {DSAR_STATUSES.map((s) => (
                    <option value={s}>{label(s)}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Type">
              {(id) => (
                <select id={id} value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as DsarType | '')}>
                  <option value="">Any type</option>
                  {DSAR_TYPES.map((s) => (
                    <option value={s}>{label(s)}</option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <PagedList list={list} emptyView={<Empty title="No requests">Requests you create appear here with their progress.</Empty>}>
            {(rows) => (
              <Table<Dsar>
                caption="Data-subject requests"
                rows={rows}
                rowKey={(d) => d.id}
                columns={[
                  { label: 'Subject', render: (d) => <a href={`/dashboard/compliance/dsar/${d.id}`}>{subjectText(d.subject)}</a> },
                  { label: 'Type', render: (d) => label(d.type) },
                  {
                    label: 'Status',
                    render: (d) => (
                      <>
                        <DsarStatusBadge status={d.status} /> {d.overdue && <Badge tone="bad">overdue</Badge>}
                      </>
                    ),
                  },
                  { label: 'Due', render: (d) => <Time iso={d.due_at} /> },
                  { label: 'Created', render: (d) => <Time iso={d.created_at} /> },
                ]}
              />
            )}
          </PagedList>
        </section>
      </div>
    </Page>
  )
}
