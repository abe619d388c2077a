import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { KnowledgeBase } from './common.js'
import { StatusBadge } from './common.js'

/** /dashboard/knowledge: the workspace's knowledge bases, and a form to create one. */
export default function Bases() {
  const { api } = useWorkspace()
  const list = usePaged<KnowledgeBase>((a, cursor) => ok(a.client.GET('/knowledge/bases', { params: { query: { cursor } } })))
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [language, setLanguage] = useState('en')
  const [created, setCreated] = useState<KnowledgeBase>()
  const create = useAction(async () => {
    const kb = await ok(api.client.POST('/knowledge/bases', { body: { name, ...(description ? { description } : {}), language } }))
    list.setItems((xs) => [kb, ...xs])
    setCreated(kb)
    setName('')
    setDescription('')
  })
  return (
    <Page title="Knowledge bases">
      <PagedList list={list} emptyView={<Empty title="No knowledge bases yet">Create one below, then upload documents or crawl a website into it.</Empty>}>
        {(rows) => (
          <Table
            caption="Knowledge bases"
            rows={rows}
            rowKey={(b) => b.id}
            columns={[
              { label: 'Name', render: (b) => <a href={`/dashboard/knowledge/bases/${b.id}`}>{b.name}</a> },
              { label: 'Documents', class: 'num', render: (b) => b.document_count },
              { label: 'Chunks', class: 'num', render: (b) => b.chunk_count },
              { label: 'Language', render: (b) => b.language },
              { label: 'Last crawl', render: (b) => (b.last_crawl ? <StatusBadge status={String(b.last_crawl.status)} /> : '—') },
              { label: 'Updated', render: (b) => <Time iso={b.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
      <section class="panel" aria-labelledby="new-base">
        <h2 id="new-base">New knowledge base</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            setCreated(undefined)
            void create.run()
          }}
        >
          <Field label="Name">{(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
          <Field label="Description">{(id) => <input id={id} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}</Field>
          <Field label="Language" hint="ISO 639-1 code: picks the stemmer of the search index.">
            {(id, hint) => <input id={id} aria-describedby={hint} value={language} pattern="[a-z]{2}" onInput={(e) => setLanguage(e.currentTarget.value)} />}
          </Field>
          {create.error && <ProblemView problem={create.error} />}
          {created && (
            <Notice>
              Created <a href={`/dashboard/knowledge/bases/${created.id}`}>{created.name}</a>.
            </Notice>
          )}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={create.pending || !name.trim()}>
              {create.pending ? 'Creating…' : 'Create base'}
            </button>
          </div>
        </form>
      </section>
    </Page>
  )
}
