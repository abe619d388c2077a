import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { fileNameOf, type Evidence, type EvidenceKind } from './compliance.shared.js'
import { saveBlob } from '../../ui/files.js'
import { GenerateEvidence } from './evidence-generate.js'

const KINDS: Record<EvidenceKind, string> = { audit_chain: 'Audit chain', access_review: 'Access review', retention: 'Retention', dsar_timeliness: 'DSAR timeliness' }
type Format = 'pdf' | 'json'

const hex = (buf: ArrayBuffer) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('')
const day = (iso: string) => iso.slice(0, 10)
/** A period's days (its end is exclusive: a daily report runs midnight to midnight UTC). */
function period(e: Evidence) {
  const last = day(new Date(Date.parse(e.period.to) - 1).toISOString())
  return last === day(e.period.from) ? last : `${day(e.period.from)} – ${last}`
}

/** /dashboard/compliance/evidence: the reports for auditors (daily, and on demand with "Generate report"), each downloadable as PDF or JSON. */
export default function EvidencePage() {
  const { api } = useWorkspace()
  const [kind, setKind] = useState<EvidenceKind | ''>('')
  const list = usePaged((a, cursor) => ok(a.client.GET('/compliance/evidence', { params: { query: { cursor, limit: 20, kind: kind || undefined } } })), [kind])
  const [saved, setSaved] = useState<{ name: string; verified?: boolean }>()
  const [generating, setGenerating] = useState(false)
  const [generated, setGenerated] = useState<Evidence>()
  const added = (e: Evidence) => {
    setGenerating(false)
    setSaved(undefined)
    setGenerated(e)
    // Under another kind's filter, show the new report's kind (it comes first: newest first); otherwise put it on top.
    if (kind && kind !== e.kind) setKind(e.kind)
    else list.setItems((xs) => [e, ...xs.filter((x) => x.id !== e.id)])
  }
  // Fetched with the member's token (a plain link could not send it), then saved from a Blob URL.
  const download = useAction(async (ev: Evidence, format: Format) => {
    setSaved(undefined)
    const res = await api.fetch(`/compliance/evidence/${encodeURIComponent(ev.id)}/download?format=${format}`, { headers: { accept: format === 'pdf' ? 'application/pdf' : 'application/json' } })
    const blob = await res.blob()
    const name = fileNameOf(res, `${ev.id}.${format}`)
    // The listing's SHA-256 covers the JSON's exact bytes: check it before handing the file over.
    const verified = format === 'json' && crypto.subtle ? hex(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer())) === ev.sha256 : undefined
    saveBlob(blob, name)
    setSaved({ name, verified })
  })
  return (
    <Page
      title="Evidence"
      actions={
        <button type="button" class="primary" onClick={() => setGenerating(true)}>
          Generate report
        </button>
      }
    >
      <p class="hint evidence-intro">Reports for auditors, made daily for the day before, and on demand over a period you choose (here or with the CLI). The SHA-256 is that of the JSON report; the PDF prints it too.</p>
      <div class="filters" role="search" aria-label="Filter evidence">
        <Field label="Kind">
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as EvidenceKind | '')}>
              <option value="">Any kind</option>
              {(Object.keys(KINDS) as EvidenceKind[]).map((k) => (
                <option value={k}>{KINDS[k]}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {generated && (
        <Notice>
          Generated the {KINDS[generated.kind]} report of {period(generated)}; download it from the list below.
        </Notice>
      )}
      {download.error && <ProblemView problem={download.error} />}
      {saved && (
        <Notice tone={saved.verified === false ? 'bad' : 'good'}>
          Saved {saved.name}.{saved.verified === true && ' Its SHA-256 matches the listing.'}
          {saved.verified === false && ' Its SHA-256 does NOT match the listing.'}
        </Notice>
      )}
      <PagedList list={list} emptyView={<Empty title="No reports">{kind ? 'No report of this kind yet.' : 'Reports appear after the first day.'}</Empty>}>
        {(rows) => (
          <Table<Evidence>
            caption="Evidence reports"
            rows={rows}
            rowKey={(e) => e.id}
            columns={[
              { label: 'Report', render: (e) => KINDS[e.kind] },
              { label: 'Period', render: (e) => <span class="nowrap">{period(e)}</span> },
              { label: 'Trigger', render: (e) => <Badge tone={e.trigger === 'manual' ? 'info' : 'neutral'}>{e.trigger}</Badge> },
              { label: 'Summary', render: (e) => <Summary e={e} /> },
              { label: 'SHA-256', render: (e) => <code class="sha" title={e.sha256}>{e.sha256.slice(0, 12)}…</code> },
              { label: 'Generated', render: (e) => <Time iso={e.generated_at} /> },
              {
                label: 'Download',
                render: (e) => (
                  <span class="evidence-actions">
                    {(['pdf', 'json'] as Format[]).map((f) => (
                      <button type="button" disabled={download.pending} onClick={() => void download.run(e, f)} aria-label={`Download ${KINDS[e.kind]} report of ${period(e)} as ${f.toUpperCase()}`}>
                        {f.toUpperCase()}
                      </button>
                    ))}
                  </span>
                ),
              },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={generating} title="Generate an evidence report" onClose={() => setGenerating(false)}>
        <GenerateEvidence kinds={KINDS} onDone={added} onCancel={() => setGenerating(false)} />
      </Dialog>
    </Page>
  )
}

function Summary({ e }: { e: Evidence }) {
  const entries = Object.entries(e.summary)
  if (entries.length === 0) return <span class="muted">—</span>
  return (
    <ul class="evidence-summary">
      {entries.map(([k, v]) => (
        <li>
          {k}: <strong>{v}</strong>
        </li>
      ))}
    </ul>
  )
}
