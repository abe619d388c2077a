import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { KnowledgeBase } from './common.js'
import { StatusBadge } from './common.js'
import { t } from '../../i18n/index.js'

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
    <Page title={t('knowledge.bases.knowledgeBases')}>
      <PagedList list={list} emptyView={<Empty title={t('knowledge.bases.noKnowledgeBasesYet')}>{t('knowledge.bases.createOneBelowThenUpload')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('knowledge.bases.knowledgeBases')}
            rows={rows}
            rowKey={(b) => b.id}
            columns={[
              { label: t('knowledge.bases.name'), render: (b) => <a href={`/dashboard/knowledge/bases/${b.id}`}>{b.name}</a> },
              { label: t('knowledge.baseDetail.documents'), class: 'num', render: (b) => b.document_count },
              { label: t('knowledge.baseDetail.chunks'), class: 'num', render: (b) => b.chunk_count },
              { label: t('knowledge.baseDetail.language'), render: (b) => b.language },
              { label: t('knowledge.bases.lastCrawl'), render: (b) => (b.last_crawl ? <StatusBadge status={String(b.last_crawl.status)} /> : '—') },
              { label: t('knowledge.bases.updated'), render: (b) => <Time iso={b.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
      <section class="panel" aria-labelledby="new-base">
        <h2 id="new-base">{t('knowledge.bases.newKnowledgeBase')}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            setCreated(undefined)
            void create.run()
          }}
        >
          <Field label={t('knowledge.bases.name')}>{(id) => <input id={id} required value={name} onInput={(e) => setName(e.currentTarget.value)} />}</Field>
          <Field label={t('knowledge.bases.description')}>{(id) => <input id={id} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}</Field>
          <Field label={t('knowledge.baseDetail.language')} hint={t('knowledge.bases.iso6391CodePicks')}>
            {(id, hint) => <input id={id} aria-describedby={hint} value={language} pattern="[a-z]{2}" onInput={(e) => setLanguage(e.currentTarget.value)} />}
          </Field>
          {create.error && <ProblemView problem={create.error} />}
          {created && (
            <Notice>
              {t('knowledge.bases.created')} <a href={`/dashboard/knowledge/bases/${created.id}`}>{created.name}</a>.
            </Notice>
          )}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={create.pending || !name.trim()}>
              {create.pending ? t('knowledge.bases.creating') : t('knowledge.bases.createBase')}
            </button>
          </div>
        </form>
      </section>
    </Page>
  )
}
