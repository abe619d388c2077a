import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'

export type Snapshot = components['schemas']['OpenApiSnapshot']
export const SNAPSHOTS_PATH = '/dashboard/developers/snapshots'

/** What a snapshot's diff amounts to, as a badge. */
export function DiffBadge({ s }: { s: Snapshot }) {
  if (!s.diff) return <Badge>first snapshot</Badge>
  if (s.unchanged) return <Badge tone="good">unchanged</Badge>
  if (s.breaking) return <Badge tone="bad">{s.diff.breaking_changes.length} breaking</Badge>
  const n = s.diff.non_breaking_changes.length + s.diff.added_operations.length
  return <Badge tone="info">{n} non-breaking</Badge>
}

/** /dashboard/developers/snapshots: the OpenAPI document as served, kept over time, each with its diff from the one before. */
export function SnapshotsPage() {
  const { api } = useWorkspace()
  const list = usePaged((a, cursor) => ok(a.client.GET('/openapi-snapshots', { params: { query: { cursor, limit: 20 } } })))
  const [label, setLabel] = useState('')
  const [taken, setTaken] = useState<Snapshot>()
  const take = useAction(async () => ok(api.client.POST('/openapi-snapshots', { body: label.trim() ? { label: label.trim() } : {} })))
  return (
    <Page title="OpenAPI snapshots">
      <form
        class="filters panel"
        aria-label="Take a snapshot"
        onSubmit={async (e) => {
          e.preventDefault()
          const s = await take.run()
          if (!s) return
          setTaken(s)
          setLabel('')
          list.setItems((xs) => [s, ...xs])
        }}
      >
        <Field label="Label (optional)" hint="e.g. a release tag">
          {(id, d) => <input id={id} aria-describedby={d} maxLength={200} value={label} onInput={(e) => setLabel((e.target as HTMLInputElement).value)} />}
        </Field>
        <FormActions action={take} label="Take a snapshot" busyLabel="Taking…" showProblem={false} />
      </form>
      {take.error && <ProblemView problem={take.error} />}
      {taken && (
        <Notice tone={taken.breaking ? 'warn' : 'good'}>
          Snapshot <code>{taken.id}</code> taken{taken.breaking ? ', with breaking changes' : taken.unchanged ? ': unchanged since the previous one' : ''}. <a href={`${SNAPSHOTS_PATH}/${taken.id}`}>View its diff</a>
        </Notice>
      )}
      <PagedList list={list} emptyView={<Empty title="No snapshots yet">Take one at each release to see what changed in the API since the last.</Empty>}>
        {(rows) => (
          <Table
            caption="OpenAPI snapshots, newest first"
            rowKey={(s) => s.id}
            rows={rows}
            columns={[
              { label: 'Taken', render: (s) => <a href={`${SNAPSHOTS_PATH}/${s.id}`}><Time iso={s.created_at} /></a> },
              { label: 'Label', render: (s) => s.label ?? '—' },
              { label: 'API version', render: (s) => s.api_version },
              { label: 'Operations', class: 'num', render: (s) => s.operation_count },
              { label: 'Diff', render: (s) => <DiffBadge s={s} /> },
              { label: 'SHA-256', render: (s) => <code title={s.sha256}>{s.sha256.slice(0, 12)}…</code> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
