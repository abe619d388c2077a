import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { ApiProblem, problemOf } from '../../api/problem.js'
import { Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { fileNameOf, type Dsar } from './compliance.shared.js'
import { formatBytes, saveBlob } from '../../ui/files.js'
import { t } from '../../i18n/index.js'

/**
 * The request's export: build a ZIP of everything about the subject (a job), then download it. The link is
 * the credential (no API key), served by this origin under /downloads/dsar/….
 */
export function DsarExport({ dsar, onChange }: { dsar: Dsar; onChange: (d: Dsar) => void }) {
  const { api } = useWorkspace()
  const [saved, setSaved] = useState<string>()
  const start = useAction(async () => {
    setSaved(undefined)
    onChange(await ok(api.client.POST('/compliance/dsar/{id}/export', { params: { path: { id: dsar.id } } })))
  })
  const download = useAction(async () => {
    const link = new URL(dsar.export.url!, location.origin)
    let res: Response
    try {
      res = await fetch(link.pathname + link.search)
    } catch (err) {
      throw await problemOf(null, err)
    }
    if (!res.ok) throw await problemOf(res)
    const name = fileNameOf(res, `${dsar.id}.zip`)
    saveBlob(await res.blob(), name)
    setSaved(name)
  })
  const ex = dsar.export
  const problem: ApiProblem | undefined = start.error ?? download.error
  return (
    <section class="panel" aria-labelledby="dsar-export">
      <h2 id="dsar-export">{t('compliance.dsarExport.export')}</h2>
      {ex.status === 'none' && <p>{t('compliance.dsarExport.noExportYetAnExport')}</p>}
      {ex.status === 'pending' && (
        <p role="status" aria-live="polite">
          <span class="spinner" aria-hidden="true" /> {t('compliance.dsarExport.buildingTheExport')}
        </p>
      )}
      {ex.status === 'failed' && (
        <p class="notice notice-bad">
          {t('compliance.dsarExport.theExportFailed')}
          {ex.error ? `: ${ex.error}` : '.'}
        </p>
      )}
      {ex.status === 'ready' && (
        <>
          <Notice tone="good">{t('compliance.dsarExport.theExportIsReady')}</Notice>
          <dl class="facts">
            <dt>{t('compliance.dsarExport.size')}</dt>
            <dd>{formatBytes(ex.size_bytes)}</dd>
            <dt>{t('compliance.dsarExport.sha256')}</dt>
            <dd class="wrap">
              <code>{ex.sha256}</code>
            </dd>
            <dt>{t('compliance.dsarExport.linkExpires')}</dt>
            <dd>
              <Time iso={ex.expires_at} />
            </dd>
          </dl>
        </>
      )}
      {problem && <ProblemView problem={problem} />}
      {saved && <Notice>{t('compliance.dsarExport.savedSaved', { saved })}</Notice>}
      <div class="form-actions">
        {ex.status === 'ready' && ex.url && (
          <button type="button" class="primary" onClick={() => void download.run()} disabled={download.pending}>
            {download.pending ? t('compliance.dsarExport.downloading') : t('compliance.dsarExport.downloadExport')}
          </button>
        )}
        {dsar.status !== 'rejected' && (
          <button type="button" onClick={() => void start.run()} disabled={start.pending || ex.status === 'pending'}>
            {ex.status === 'none' ? t('compliance.dsarExport.exportData') : t('compliance.dsarExport.exportAgain')}
          </button>
        )}
      </div>
    </section>
  )
}
