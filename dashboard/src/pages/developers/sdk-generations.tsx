import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, Table, Time, type Tone } from '../../ui/components.js'
import { useAction, usePaged, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { fetchLink } from './download.js'
import { formatBytes, saveBlob } from '../../ui/files.js'
import './tools.css'

type Generation = components['schemas']['SdkGeneration']
type Language = components['schemas']['SdkLanguage']

const LANGUAGES: { value: Language; label: string; name: string; version: string }[] = [
  { value: 'node', label: 'Node.js (TypeScript)', name: 'an npm name, e.g. @acme/svc-client', version: 'semantic version, e.g. 1.2.0' },
  { value: 'python', label: 'Python', name: 'a PEP 508 name, e.g. acme-svc', version: 'PEP 440 version, e.g. 1.2.0' },
  { value: 'php', label: 'PHP', name: 'a Composer name, e.g. acme/svc-client', version: 'e.g. 1.2.0' },
  { value: 'ruby', label: 'Ruby', name: 'a gem name, e.g. acme-svc', version: 'a Gem::Version, e.g. 1.2.0' },
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
    setNotice(`Generating ${g.package_name} ${g.version} (${g.language}): it is queued.`)
  })
  // The job runs for seconds: follow the generations not finished yet.
  usePoll(list.items.some(busy), async () => {
    const fresh = await ok(api.client.GET('/sdk-generations', { params: { query: { limit: 100 } } }))
    const byId = new Map(fresh.data.map((g) => [g.id, g]))
    list.setItems((xs) => xs.map((x) => byId.get(x.id) ?? x))
  })
  const lang = LANGUAGES.find((l) => l.value === language)!
  return (
    <Page title="SDK generation">
      <form
        class="panel"
        aria-labelledby="sdk-new"
        onSubmit={(e) => {
          e.preventDefault()
          setNotice(undefined)
          void create.run()
        }}
      >
        <h2 id="sdk-new">Generate a client</h2>
        <p class="hint">From the OpenAPI document this server serves now: the generated code with its runtime, zipped as a package with your name and version in its manifest.</p>
        <div class="sdk-form">
          <Field label="Language">
            {(id) => (
              <select id={id} value={language} onChange={(e) => setLanguage(e.currentTarget.value as Language)}>
                {LANGUAGES.map((l) => (
                  <option value={l.value}>{l.label}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Package name" hint={`Optional: ${lang.name}.`}>
            {(id, d) => <input id={id} aria-describedby={d} value={packageName} onInput={(e) => setPackageName(e.currentTarget.value)} />}
          </Field>
          <Field label="Version" hint={`Optional: ${lang.version}.`}>
            {(id, d) => <input id={id} aria-describedby={d} value={version} onInput={(e) => setVersion(e.currentTarget.value)} />}
          </Field>
        </div>
        <FormActions action={create} label="Generate" busyLabel="Queuing…" />
      </form>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={list} emptyView={<Empty title="No SDKs generated yet">Choose a language above and generate one.</Empty>}>
        {(rows) => (
          <Table
            caption="SDK generations, newest first"
            rowKey={(g) => g.id}
            rows={rows}
            columns={[
              { label: 'Package', render: (g) => <code class="nowrap">{g.package_name}</code> },
              { label: 'Version', render: (g) => g.version },
              { label: 'Language', render: (g) => g.language },
              {
                label: 'Status',
                render: (g) => (
                  <>
                    <Badge tone={TONE[g.status]}>{g.status}</Badge> {g.error && <span class="hint">{g.error}</span>}
                  </>
                ),
              },
              { label: 'Operations', class: 'num', render: (g) => g.operations ?? '—' },
              { label: 'API version', render: (g) => g.api_version },
              { label: 'Archive', render: (g) => <ArchiveCell g={g} /> },
              { label: 'Created', render: (g) => <Time iso={g.created_at} /> },
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
  if (!a) return <span>{busy(g) ? 'being made…' : '—'}</span>
  return (
    <div>
      <span class="nowrap">
        {formatBytes(a.size_bytes)}, {a.files} files
      </span>{' '}
      {a.url ? (
        <button type="button" disabled={download.pending} onClick={() => void download.run(a.url!, a.filename)}>
          {download.pending ? 'Downloading…' : 'Download'}
          <span class="visually-hidden"> {a.filename}</span>
        </button>
      ) : (
        <span class="hint">link expired</span>
      )}
      <p class="hint">
        SHA-256 <code class="break-anywhere">{a.sha256.slice(0, 16)}…</code>; link until <Time iso={a.expires_at} />
      </p>
      {download.error && <ProblemView problem={download.error} />}
    </div>
  )
}
