import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { fileNameOf, type Evidence, type EvidenceKind } from './compliance.shared.js'
import { saveBlob } from '../../ui/files.js'
import { GenerateEvidence } from './evidence-generate.js'
import { t } from '../../i18n/index.js'

const kinds = (): Record<EvidenceKind, string> => ({
  audit_chain: t('compliance.evidence.kindAuditChain'),
  access_review: t('compliance.evidence.kindAccessReview'),
  retention: t('compliance.evidence.kindRetention'),
  dsar_timeliness: t('compliance.evidence.kindDsarTimeliness'),
})
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
      title={t('compliance.evidence.evidence')}
      actions={
        <button type="button" class="primary" onClick={() => setGenerating(true)}>
          {t('compliance.evidenceGenerate.generateReport')}
        </button>
      }
    >
      <p class="hint evidence-intro">{t('compliance.evidence.reportsForAuditorsMadeDaily')}</p>
      <div class="filters" role="search" aria-label={t('compliance.evidence.filterEvidence')}>
        <Field label={t('compliance.evidence.kind')}>
          {(id) => (
            <select id={id} value={kind} onChange={(e) => setKind((e.target as HTMLSelectElement).value as EvidenceKind | '')}>
              <option value="">{t('compliance.evidence.anyKind')}</option>
              {(Object.keys(kinds()) as EvidenceKind[]).map((k) => (
                <option value={k}>{kinds()[k]}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {generated && <Notice>{t('compliance.evidence.generatedTheValueReportOf', { value: kinds()[generated.kind], generated: period(generated) })}</Notice>}
      {download.error && <ProblemView problem={download.error} />}
      {saved && (
        <Notice tone={saved.verified === false ? 'bad' : 'good'}>
          {t('compliance.evidence.savedName', { name: saved.name })}
          {saved.verified === true && t('compliance.evidence.itsSha256MatchesThe')}
          {saved.verified === false && t('compliance.evidence.itsSha256DoesNot')}
        </Notice>
      )}
      <PagedList
        list={list}
        emptyView={<Empty title={t('compliance.evidence.noReports')}>{kind ? t('compliance.evidence.noReportOfThisKind') : t('compliance.evidence.reportsAppearAfterTheFirst')}</Empty>}
      >
        {(rows) => (
          <Table<Evidence>
            caption={t('compliance.evidence.evidenceReports')}
            rows={rows}
            rowKey={(e) => e.id}
            columns={[
              { label: t('compliance.evidence.report'), render: (e) => kinds()[e.kind] },
              { label: t('compliance.evidence.period'), render: (e) => <span class="nowrap">{period(e)}</span> },
              { label: t('compliance.evidence.trigger'), render: (e) => <Badge tone={e.trigger === 'manual' ? 'info' : 'neutral'}>{e.trigger}</Badge> },
              { label: t('compliance.evidence.summary'), render: (e) => <Summary e={e} /> },
              {
                label: t('compliance.dsarExport.sha256'),
                render: (e) => (
                  <code class="sha" title={e.sha256}>
                    {e.sha256.slice(0, 12)}…
                  </code>
                ),
              },
              { label: t('compliance.evidence.generated'), render: (e) => <Time iso={e.generated_at} /> },
              {
                label: t('compliance.evidence.download'),
                render: (e) => (
                  <span class="evidence-actions">
                    {(['pdf', 'json'] as Format[]).map((f) => (
                      <button
                        type="button"
                        disabled={download.pending}
                        onClick={() => void download.run(e, f)}
                        aria-label={t('compliance.evidence.downloadValueReportOfE', { value: kinds()[e.kind], e: period(e), value2: f.toUpperCase() })}
                      >
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
      <Dialog open={generating} title={t('compliance.evidence.generateAnEvidenceReport')} onClose={() => setGenerating(false)}>
        <GenerateEvidence kinds={kinds()} onDone={added} onCancel={() => setGenerating(false)} />
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
