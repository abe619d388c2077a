import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, Table, Time, type Tone } from '../../ui/components.js'
import { useAction, usePaged, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { fetchLink } from './download.js'
import { formatBytes, saveBlob } from '../../ui/files.js'
import './tools.css'
import { statusLabel, t } from '../../i18n/index.js'

type Generation = components['schemas']['SdkGeneration']
type Language = components['schemas']['SdkLanguage']

const languages = (): { value: Language; label: string; name: string; version: string }[] => [
  { value: 'node', label: 'Node.js (TypeScript)', name: t('developers.sdk.nodeName'), version: t('developers.sdk.nodeVersion') },
  { value: 'python', label: 'Python', name: t('developers.sdk.pythonName'), version: t('developers.sdk.pythonVersion') },
  { value: 'php', label: 'PHP', name: t('developers.sdk.phpName'), version: t('developers.sdk.phpVersion') },
  { value: 'ruby', label: 'Ruby', name: t('developers.sdk.rubyName'), version: t('developers.sdk.rubyVersion') },
]
const TONE: Record<Generation['status'], Tone> = { queued: 'info', running: 'info', succeeded: 'good', failed: 'bad' }
const busy = (g: Generation) => g.status === 'queued' || g.status === 'running'

/**
 * /dashboard/developers/sdks: generate the official client of a language from the API document this
 * server serves now, follow the job, and download the package (its link works 24 hours, without a key).
 */
export function SdkGenerationsPage() {
  const { api } = useWorkspace()
  const list = usePaged((a, cursor) => ok(a.client.GET('/sdk-generations', { params: { query: { cursor, limit: 20 } } })))
  const [language, setLanguage] = useState<Language>('node')
  const [packageName, setPackageName] = useState('')
  const [version, setVersion] = useState('')
  const [notice, setNotice] = useState<string>()
  const create = useAction(async () => {
    const g = await ok(
      api.client.POST('/sdk-generations', {
        body: { language, ...(packageName.trim() ? { package_name: packageName.trim() } : {}), ...(version.trim() ? { version: version.trim() } : {}) },
      }),
    )
    list.setItems((xs) => [g, ...xs.filter((x) => x.id !== g.id)])
    setNotice(t('developers.sdkGenerations.generatingPackagenameVersionLanguageIt', { packageName: g.package_name, version: g.version, language: g.language }))
  })
  // The job runs for seconds: follow the generations not finished yet.
  usePoll(list.items.some(busy), async () => {
    const fresh = await ok(api.client.GET('/sdk-generations', { params: { query: { limit: 100 } } }))
    const byId = new Map(fresh.data.map((g) => [g.id, g]))
    list.setItems((xs) => xs.map((x) => byId.get(x.id) ?? x))
  })
  const lang = languages().find((l) => l.value === language)!
  return (
    <Page title={t('developers.sdkGenerations.sdkGeneration')}>
      <form
        class="panel"
        aria-labelledby="sdk-new"
        onSubmit={(e) => {
          e.preventDefault()
          setNotice(undefined)
          void create.run()
        }}
      >
        <h2 id="sdk-new">{t('developers.sdkGenerations.generateAClient')}</h2>
        <p class="hint">{t('developers.sdkGenerations.fromTheOpenapiDocumentThis')}</p>
        <div class="sdk-form">
          <Field label={t('developers.sdkGenerations.language')}>
            {(id) => (
              <select id={id} value={language} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
                {languages().map((l) => (
                  <option value={l.value}>{l.label}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('developers.sdkGenerations.packageName')} hint={t('developers.sdkGenerations.optionalName', { name: lang.name })}>
            {(id, d) => <input id={id} aria-describedby={d} value={packageName} onInput={(e) => setPackageName(e.currentTarget.value)} />}
          </Field>
          <Field label={t('developers.sdkGenerations.version')} hint={t('developers.sdkGenerations.optionalVersion', { version: lang.version })}>
            {(id, d) => <input id={id} aria-describedby={d} value={version} onInput={(e) => setVersion(e.currentTarget.value)} />}
          </Field>
        </div>
        <FormActions action={create} label={t('developers.sdkGenerations.generate')} busyLabel={t('developers.sdkGenerations.queuing')} />
      </form>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={list} emptyView={<Empty title={t('developers.sdkGenerations.noSdksGeneratedYet')}>{t('developers.sdkGenerations.chooseALanguageAboveAnd')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.sdkGenerations.sdkGenerationsNewestFirst')}
            rowKey={(g) => g.id}
            rows={rows}
            columns={[
              { label: t('developers.sdkGenerations.package'), render: (g) => <code class="nowrap">{g.package_name}</code> },
              { label: t('developers.sdkGenerations.version'), render: (g) => g.version },
              { label: t('developers.sdkGenerations.language'), render: (g) => g.language },
              {
                label: t('developers.deliveriesDetail.status'),
                render: (g) => (
                  <>
                    <Badge tone={TONE[g.status]}>{statusLabel(g.status)}</Badge> {g.error && <span class="hint">{g.error}</span>}
                  </>
                ),
              },
              { label: t('developers.sdkGenerations.operations'), class: 'num', render: (g) => g.operations ?? '—' },
              { label: t('developers.sdkGenerations.apiVersion'), render: (g) => g.api_version },
              { label: t('developers.sdkGenerations.archive'), render: (g) => <ArchiveCell g={g} /> },
              { label: t('developers.deliveriesDetail.created'), render: (g) => <Time iso={g.created_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}

function ArchiveCell({ g }: { g: Generation }) {
  const download = useAction(async (url: string, name: string) => saveBlob(await fetchLink(url), name))
  const a = g.archive
  if (!a) return <span>{busy(g) ? t('developers.sdkGenerations.beingMade') : '—'}</span>
  return (
    <div>
      <span class="nowrap">{t('developers.sdkGenerations.sizebytesFilesFiles', { sizeBytes: formatBytes(a.size_bytes), files: a.files })}</span>{' '}
      {a.url ? (
        <button type="button" disabled={download.pending} onClick={() => void download.run(a.url!, a.filename)}>
          {download.pending ? t('developers.sdkGenerations.downloading') : t('developers.sdkGenerations.download')}
          <span class="visually-hidden"> {a.filename}</span>
        </button>
      ) : (
        <span class="hint">{t('developers.sdkGenerations.linkExpired')}</span>
      )}
      <p class="hint">
        {t('developers.sdkGenerations.sha256')} <code class="break-anywhere">{a.sha256.slice(0, 16)}…</code>
        {t('developers.sdkGenerations.linkUntil')} <Time iso={a.expires_at} />
      </p>
      {download.error && <ProblemView problem={download.error} />}
    </div>
  )
}
