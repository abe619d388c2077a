import { useRoute } from 'preact-iso'
import { ok, type Api } from '../../api/client.js'
import { Async, Badge, Notice, Page, Table, Time } from '../../ui/components.js'
import { usePoll, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DsarStatusBadge, label, subjectText, title, type Dsar } from './compliance.shared.js'
import { DsarExport } from './dsar-export.js'

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
    <Page title="Data-subject request">
      <p>
        <a href="/dashboard/compliance/dsar">← All requests</a>
      </p>
      {query.created && <Notice>Request created. It is processed in the background.</Notice>}
      <Async loading={dsar.loading} error={dsar.error} data={dsar.data} onRetry={dsar.reload}>
        {(d) => (
          <>
            <section class="panel" aria-labelledby="dsar-facts">
              <h2 id="dsar-facts">{title(d.type)} request</h2>
              <dl class="facts">
                <dt>Status</dt>
                <dd data-testid="dsar-status">
                  <DsarStatusBadge status={d.status} /> {d.overdue && <Badge tone="bad">overdue</Badge>}
                </dd>
                <dt>Subject</dt>
                <dd class="wrap">{subjectText(d.subject)}</dd>
                {Object.keys(d.changes).length > 0 && (
                  <>
                    <dt>Corrections</dt>
                    <dd class="wrap">
                      {Object.entries(d.changes)
                        .map(([k, v]) => `${k}: ${v}`)
                        .join(', ')}
                    </dd>
                  </>
                )}
                <dt>Records found</dt>
                <dd>{d.records_found}</dd>
                <dt>Created</dt>
                <dd>
                  <Time iso={d.created_at} />
                </dd>
                <dt>Due</dt>
                <dd>
                  <Time iso={d.due_at} />
                </dd>
                <dt>Completed</dt>
                <dd>
                  <Time iso={d.completed_at} />
                </dd>
                {d.notes && (
                  <>
                    <dt>Notes</dt>
                    <dd class="wrap">{d.notes}</dd>
                  </>
                )}
                <dt>Request id</dt>
                <dd>
                  <code>{d.id}</code>
                </dd>
              </dl>
            </section>
            <section aria-labelledby="dsar-progress" class="dsar-progress">
              <h2 id="dsar-progress" class="section-title">
                Progress by module
              </h2>
              {d.progress.length === 0 ? (
                <p class="muted">Not started yet.</p>
              ) : (
                <Table<Progress>
                  caption="Progress by module"
                  rows={d.progress}
                  rowKey={(p) => p.module}
                  columns={[
                    { label: 'Module', render: (p) => p.module },
                    { label: 'Status', render: (p) => <Badge tone={p.status === 'done' ? 'good' : p.status === 'failed' ? 'bad' : 'info'}>{p.status}</Badge> },
                    { label: 'Records', render: records },
                    { label: 'Deleted', class: 'num', render: (p) => p.deleted ?? '—' },
                    { label: 'Anonymised', class: 'num', render: (p) => p.anonymised ?? '—' },
                    { label: 'Error', render: (p) => p.error ?? '' },
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
