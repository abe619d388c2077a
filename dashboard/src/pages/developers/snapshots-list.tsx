import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'
import { t } from '../../i18n/index.js'

export type Snapshot = components['schemas']['OpenApiSnapshot']
export const SNAPSHOTS_PATH = '/dashboard/developers/snapshots'

/** What a snapshot's diff amounts to, as a badge. */
export function DiffBadge({ s }: { s: Snapshot }) {
  if (!s.diff) return <Badge>{t('developers.snapshotsList.firstSnapshot')}</Badge>
  if (s.unchanged) return <Badge tone="good">{t('developers.snapshotsList.unchanged')}</Badge>
  if (s.breaking) return <Badge tone="bad">{t('developers.snapshotsList.lengthBreaking', { length: s.diff.breaking_changes.length })}</Badge>
  const n = s.diff.non_breaking_changes.length + s.diff.added_operations.length
  return <Badge tone="info">{t('developers.snapshotsList.nNonBreaking', { n })}</Badge>
}

/** /dashboard/developers/snapshots: the OpenAPI document as served, kept over time, each with its diff from the one before. */
export function SnapshotsPage() {
  const { api } = useWorkspace()
  const list = usePaged((a, cursor) => ok(a.client.GET('/openapi-snapshots', { params: { query: { cursor, limit: 20 } } })))
  const [label, setLabel] = useState('')
  const [taken, setTaken] = useState<Snapshot>()
  const take = useAction(async () => ok(api.client.POST('/openapi-snapshots', { body: label.trim() ? { label: label.trim() } : {} })))
  return (
    <Page title={t('developers.snapshotsList.openapiSnapshots')}>
      <form
        class="filters panel"
        aria-label={t('developers.snapshotsList.takeASnapshot')}
        onSubmit={async (e) => {
          e.preventDefault()
          const s = await take.run()
          if (!s) return
          setTaken(s)
          setLabel('')
          list.setItems((xs) => [s, ...xs])
        }}
      >
        <Field label={t('developers.snapshotsList.labelOptional')} hint={t('developers.snapshotsList.eGAReleaseTag')}>
          {(id, d) => <input id={id} aria-describedby={d} maxLength={200} value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />}
        </Field>
        <FormActions action={take} label={t('developers.snapshotsList.takeASnapshot')} busyLabel={t('developers.snapshotsList.taking')} showProblem={false} />
      </form>
      {take.error && <ProblemView problem={take.error} />}
      {taken && (
        <Notice tone={taken.breaking ? 'warn' : 'good'}>
          {t('developers.snapshotsDetail.snapshot')} <code>{taken.id}</code> {t('developers.snapshotsList.taken')}
          {taken.breaking ? t('developers.snapshotsList.withBreakingChanges') : taken.unchanged ? t('developers.snapshotsList.unchangedSinceThePreviousOne') : ''}.{' '}
          <a href={`${SNAPSHOTS_PATH}/${taken.id}`}>{t('developers.snapshotsList.viewItsDiff')}</a>
        </Notice>
      )}
      <PagedList list={list} emptyView={<Empty title={t('developers.snapshotsList.noSnapshotsYet')}>{t('developers.snapshotsList.takeOneAtEachRelease')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.snapshotsList.openapiSnapshotsNewestFirst')}
            rowKey={(s) => s.id}
            rows={rows}
            columns={[
              {
                label: t('developers.snapshotsDetail.taken'),
                render: (s) => (
                  <a href={`${SNAPSHOTS_PATH}/${s.id}`}>
                    <Time iso={s.created_at} />
                  </a>
                ),
              },
              { label: t('developers.snapshotsList.label'), render: (s) => s.label ?? '—' },
              { label: t('developers.sdkGenerations.apiVersion'), render: (s) => s.api_version },
              { label: t('developers.sdkGenerations.operations'), class: 'num', render: (s) => s.operation_count },
              { label: t('developers.snapshotsDetail.diff'), render: (s) => <DiffBadge s={s} /> },
              { label: t('developers.sdkGenerations.sha256'), render: (s) => <code title={s.sha256}>{s.sha256.slice(0, 12)}…</code> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
