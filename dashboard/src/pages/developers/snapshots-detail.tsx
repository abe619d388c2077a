import { useRoute } from 'preact-iso'
import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { ApiProblem } from '../../api/problem.js'
import type { components } from '../../api/schema.js'
import { Async, Badge, Page, ProblemView, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DiffBadge, SNAPSHOTS_PATH, type Snapshot } from './snapshots-list.js'
import './tools.css'
import { t } from '../../i18n/index.js'

type Change = components['schemas']['OpenApiChange']
type OperationRef = components['schemas']['OpenApiOperationRef']
const SHOWN = 200

/** /dashboard/developers/snapshots/:id: one snapshot and its diff from the previous one, breaking changes first. */
export function SnapshotDetail() {
  const { params } = useRoute()
  const snap = useResource(
    async (api) => {
      const page = await ok(api.client.GET('/openapi-snapshots', { params: { query: { id: params.id } } }))
      if (!page.data[0]) throw new ApiProblem(404, { detail: t('developers.snapshotsDetail.noSnapshotIdInThis', { id: params.id }) }, null)
      return page.data[0]
    },
    [params.id],
  )
  return (
    <Page
      title={snap.data ? t('developers.snapshotsDetail.snapshotValue', { value: snap.data.label ?? snap.data.id }) : t('developers.snapshotsDetail.snapshot')}
      actions={<a href={SNAPSHOTS_PATH}>{t('developers.snapshotsDetail.allSnapshots')}</a>}
    >
      <Async loading={snap.loading} error={snap.error} data={snap.data} onRetry={snap.reload}>
        {(s) => <SnapshotView s={s} />}
      </Async>
    </Page>
  )
}

function SnapshotView({ s }: { s: Snapshot }) {
  const d = s.diff
  return (
    <>
      <section class="panel" aria-labelledby="snap-facts">
        <h2 id="snap-facts">{t('developers.snapshotsDetail.document')}</h2>
        <dl class="facts">
          <dt>{t('developers.oauthAppsDetail.id')}</dt>
          <dd>
            <code>{s.id}</code>
          </dd>
          <dt>{t('developers.snapshotsDetail.taken')}</dt>
          <dd>
            <Time iso={s.created_at} />
          </dd>
          <dt>{t('developers.sdkGenerations.apiVersion')}</dt>
          <dd>{t('developers.snapshotsDetail.apiversionOpenapiOpenapiversion', { apiVersion: s.api_version, openapiVersion: s.openapi_version })}</dd>
          <dt>{t('developers.sdkGenerations.operations')}</dt>
          <dd>{s.operation_count}</dd>
          <dt>{t('developers.snapshotsDetail.size')}</dt>
          <dd>
            {(s.size_bytes / 1024).toFixed(0)} {t('developers.snapshotsDetail.kib')}
          </dd>
          <dt>{t('developers.sdkGenerations.sha256')}</dt>
          <dd>
            <code>{s.sha256}</code>
          </dd>
          <dt>{t('developers.snapshotsDetail.comparedWith')}</dt>
          <dd>{s.previous_snapshot_id ? <a href={`${SNAPSHOTS_PATH}/${s.previous_snapshot_id}`}>{s.previous_snapshot_id}</a> : t('developers.snapshotsDetail.nothingTheFirstSnapshot')}</dd>
          <dt>{t('developers.snapshotsDetail.diff')}</dt>
          <dd>
            <DiffBadge s={s} />
          </dd>
        </dl>
        <Download s={s} />
      </section>
      {d && !s.unchanged && (
        <>
          <ChangeSection title={t('developers.snapshotsDetail.breakingChanges')} changes={d.breaking_changes} breaking />
          <OperationSection title={t('developers.snapshotsDetail.removedOperations')} ops={d.removed_operations} />
          <OperationSection title={t('developers.snapshotsDetail.addedOperations')} ops={d.added_operations} />
          <ChangeSection title={t('developers.snapshotsDetail.nonBreakingChanges')} changes={d.non_breaking_changes} />
        </>
      )}
      {d && s.unchanged && <p class="notice notice-good">{t('developers.snapshotsDetail.theDocumentIsIdenticalTo')}</p>}
    </>
  )
}

function ChangeSection({ title, changes, breaking = false }: { title: string; changes: Change[]; breaking?: boolean }) {
  const [all, setAll] = useState(false)
  const id = breaking ? 'diff-breaking' : 'diff-nonbreaking'
  const shown = all ? changes : changes.slice(0, SHOWN)
  return (
    <section class={`panel${breaking && changes.length ? ' breaking-change' : ''}`} aria-labelledby={id}>
      <h2 id={id}>
        {title} <Badge tone={breaking && changes.length ? 'bad' : 'neutral'}>{changes.length}</Badge>
      </h2>
      {changes.length === 0 ? (
        <p>{t('developers.snapshotsDetail.none')}</p>
      ) : (
        <ul class="diff-list">
          {shown.map((c) => (
            <li class={breaking ? 'breaking-change' : undefined}>
              {breaking && <span class="visually-hidden">{t('developers.snapshotsDetail.breaking')} </span>}
              <strong>{c.message}</strong> — <code>{c.operation_id}</code> <Badge tone={breaking ? 'bad' : 'info'}>{c.kind.replaceAll('_', ' ')}</Badge>
              <code class="diff-location">{c.location}</code>
            </li>
          ))}
        </ul>
      )}
      {!all && changes.length > SHOWN && (
        <button type="button" onClick={() => setAll(true)}>
          {t('developers.snapshotsDetail.showAllLength', { length: changes.length })}
        </button>
      )}
    </section>
  )
}

function OperationSection({ title, ops }: { title: string; ops: OperationRef[] }) {
  if (ops.length === 0) return null
  return (
    <section class="panel" aria-label={title}>
      <h2>
        {title} <Badge>{ops.length}</Badge>
      </h2>
      <ul class="diff-list">
        {ops.map((o) => (
          <li>
            <code>
              {o.method} {o.path}
            </code>{' '}
            <code>{o.operation_id}</code>
          </li>
        ))}
      </ul>
    </section>
  )
}

/** Downloads the stored document (the snapshot's document_url, through the signed-in member's token). */
function Download({ s }: { s: Snapshot }) {
  const { api } = useWorkspace()
  const [href, setHref] = useState<string>()
  useEffect(() => () => void (href && URL.revokeObjectURL(href)), [href])
  const load = useAction(async () => {
    const res = await api.fetch(`/openapi-snapshots?id=${encodeURIComponent(s.id)}&include=document`)
    const body = (await res.json()) as { data: Snapshot[] }
    const blob = new Blob([JSON.stringify(body.data[0]?.document ?? {}, null, 2)], { type: 'application/json' })
    setHref(URL.createObjectURL(blob))
  })
  return (
    <div class="form-actions">
      {href ? (
        <a class="button" href={href} download={`openapi-${s.id}.json`}>
          {t('developers.snapshotsDetail.saveOpenapiIdJson', { id: s.id })}
        </a>
      ) : (
        <button type="button" onClick={() => load.run()} disabled={load.pending}>
          {load.pending ? t('developers.snapshotsDetail.fetchingTheDocument') : t('developers.snapshotsDetail.getTheDocument')}
        </button>
      )}
      {load.error && <ProblemView problem={load.error} />}
    </div>
  )
}
