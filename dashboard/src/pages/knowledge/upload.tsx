import { useState } from 'preact/hooks'
import { Field, ProblemView } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { KnowledgeDocument } from './common.js'
import { t } from '../../i18n/index.js'

/** Uploads one file (text, Markdown, HTML, PDF, DOCX) into a base, with a progress bar for the bytes sent. */
export function UploadForm({ baseId, onUploaded }: { baseId: string; onUploaded: (doc: KnowledgeDocument, duplicate: boolean) => void }) {
  const { api } = useWorkspace()
  const [file, setFile] = useState<File | null>(null)
  const [title, setTitle] = useState('')
  const [progress, setProgress] = useState<number | null>(null)
  const [inputKey, setInputKey] = useState(0)
  const upload = useAction(async () => {
    if (!file) return
    const form = new FormData()
    form.append('file', file, file.name)
    if (title.trim()) form.append('title', title.trim())
    setProgress(0)
    const before = Date.now()
    const doc = await api.upload<KnowledgeDocument>(`/knowledge/bases/${baseId}/documents`, form, (f) => setProgress(f))
    setProgress(1)
    // An identical file already in the base answers with that document (200), not a new queued one.
    onUploaded(doc, Date.parse(doc.created_at) < before - 1000)
    setFile(null)
    setTitle('')
    setInputKey((k) => k + 1)
  })
  const pct = progress === null ? 0 : Math.round(progress * 100)
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void upload.run()
      }}
    >
      <Field label={t('knowledge.upload.file')} hint={t('knowledge.upload.textMarkdownHtmlPdfOr')}>
        {(id, hint) => (
          <input
            key={inputKey}
            id={id}
            type="file"
            aria-describedby={hint}
            accept=".txt,.md,.markdown,.html,.htm,.pdf,.docx,text/plain,text/markdown,text/html,application/pdf"
            required
            onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
          />
        )}
      </Field>
      <Field label={t('knowledge.baseDetail.title')} hint={t('knowledge.upload.optionalDefaultsToTheFile')}>
        {(id, hint) => <input id={id} aria-describedby={hint} value={title} onInput={(e) => setTitle(e.currentTarget.value)} />}
      </Field>
      {progress !== null && (
        <div class="field">
          <label for={`upload-progress-${baseId}`}>{t('knowledge.upload.uploadProgress')}</label>
          <progress id={`upload-progress-${baseId}`} max={100} value={pct}>
            {pct}%
          </progress>{' '}
          <span aria-live="polite">{pct}%</span>
        </div>
      )}
      {upload.error && <ProblemView problem={upload.error} />}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={upload.pending || !file}>
          {upload.pending ? t('knowledge.upload.uploading') : t('knowledge.upload.upload')}
        </button>
      </div>
    </form>
  )
}
