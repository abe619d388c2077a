import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Empty, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged, useResource, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { KnowledgeBase, KnowledgeCrawl, KnowledgeDocument } from './common.js'
import { formatBytes, StatusBadge } from './common.js'
import { CrawlForm, CrawlProgress } from './crawl.js'
import { UploadForm } from './upload.js'
import { statusLabel, t } from '../../i18n/index.js'

const pending = (d: KnowledgeDocument) => d.status === 'queued' || d.status === 'processing'

/** /dashboard/knowledge/bases/:id: a base, its documents with their processing status, upload and crawl. */
export default function BaseDetail() {
  const { id } = useRoute().params as { id: string }
  const { api } = useWorkspace()
  const base = useResource((a) => ok(a.client.GET('/knowledge/bases/{id}', { params: { path: { id } } })), [id])
  const [status, setStatus] = useState('')
  const docs = usePaged<KnowledgeDocument>(
    (a, cursor) => ok(a.client.GET('/knowledge/bases/{id}/documents', { params: { path: { id }, query: { cursor, ...(status ? { status: status as KnowledgeDocument['status'] } : {}) } } })),
    [id, status],
  )
  const [uploaded, setUploaded] = useState<{ id: string; duplicate: boolean }>()

  // Documents still queued or processing: read each again until it is ready or failed.
  const waiting = docs.items.filter(pending)
  usePoll(waiting.length > 0, async () => {
    const fresh = await Promise.all(waiting.map((d) => ok(api.client.GET('/knowledge/documents/{id}', { params: { path: { id: d.id } } }))))
    const byId = new Map(fresh.map((d) => [d.id, d as KnowledgeDocument]))
    docs.setItems((xs) => xs.map((x) => byId.get(x.id) ?? x))
    if (fresh.some((d) => !pending(d as KnowledgeDocument))) base.reload()
  })

  // A crawl in progress: follow it on the base's last_crawl.
  const crawl = base.data?.last_crawl as KnowledgeCrawl | null | undefined
  const crawling = !!crawl && (crawl.status === 'queued' || crawl.status === 'running')
  usePoll(
    crawling,
    async () => {
      const b = await ok(api.client.GET('/knowledge/bases/{id}', { params: { path: { id } } }))
      base.set(b)
      const c = b.last_crawl as KnowledgeCrawl | null
      if (c && c.status !== 'queued' && c.status !== 'running') docs.reload()
    },
    1500,
  )

  const mine = uploaded && docs.items.find((d) => d.id === uploaded.id)
  return (
    <Page title={base.data?.name ?? t('knowledge.baseDetail.knowledgeBase')} actions={<a href="/dashboard/knowledge/search">{t('knowledge.baseDetail.search')}</a>}>
      <Async loading={base.loading} error={base.error} data={base.data} onRetry={base.reload}>
        {(b: KnowledgeBase) => (
          <section class="panel" aria-label={t('knowledge.baseDetail.aboutThisBase')}>
            {b.description && <p>{b.description}</p>}
            <dl class="facts">
              <dt>{t('knowledge.baseDetail.id')}</dt>
              <dd>
                <code>{b.id}</code>
              </dd>
              <dt>{t('knowledge.baseDetail.language')}</dt>
              <dd>{b.language}</dd>
              <dt>{t('knowledge.baseDetail.chunking')}</dt>
              <dd>{t('knowledge.baseDetail.sizeCharactersOverlapOverlap', { size: b.chunking.size, overlap: b.chunking.overlap })}</dd>
              <dt>{t('knowledge.baseDetail.documents')}</dt>
              <dd>{b.document_count}</dd>
              <dt>{t('knowledge.baseDetail.searchableChunks')}</dt>
              <dd>{b.chunk_count}</dd>
            </dl>
          </section>
        )}
      </Async>
      {base.data && (
        <div class="split">
          <section class="panel" aria-labelledby="upload-title">
            <h2 id="upload-title">{t('knowledge.baseDetail.uploadADocument')}</h2>
            <UploadForm
              baseId={id}
              onUploaded={(doc, duplicate) => {
                setUploaded({ id: doc.id, duplicate })
                docs.setItems((xs) => [doc, ...xs.filter((x) => x.id !== doc.id)])
              }}
            />
            {mine && (
              <Notice tone={mine.status === 'failed' ? 'bad' : mine.status === 'ready' ? 'good' : 'info'}>
                {uploaded?.duplicate ? t('knowledge.baseDetail.alreadyInThisBase') : ''}
                {t('knowledge.baseDetail.titleIsStatus', { title: mine.title, status: statusLabel(mine.status) })}
                {mine.status === 'ready' ? t('knowledge.baseDetail.chunkcountChunksItCanBe', { chunkCount: mine.chunk_count }) : mine.status === 'failed' ? `: ${mine.error}` : '…'}
              </Notice>
            )}
          </section>
          <section class="panel" aria-labelledby="crawl-title">
            <h2 id="crawl-title">{t('knowledge.baseDetail.crawlAWebsite')}</h2>
            <CrawlForm baseId={id} busy={crawling} onStarted={(c) => base.set({ ...base.data!, last_crawl: c as unknown as KnowledgeBase['last_crawl'] })} />
            {crawl && <CrawlProgress crawl={crawl} />}
          </section>
        </div>
      )}
      <section aria-labelledby="docs-title">
        <h2 id="docs-title">{t('knowledge.baseDetail.documents')}</h2>
        <div class="filters">
          <div class="field">
            <label for="doc-status">{t('knowledge.baseDetail.status')}</label>
            <select id="doc-status" value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
              <option value="">{t('knowledge.baseDetail.all')}</option>
              <option value="queued">{t('knowledge.baseDetail.queued')}</option>
              <option value="processing">{t('knowledge.baseDetail.processing')}</option>
              <option value="ready">{t('knowledge.baseDetail.ready')}</option>
              <option value="failed">{t('knowledge.baseDetail.failed')}</option>
            </select>
          </div>
        </div>
        <PagedList list={docs} emptyView={<Empty title={t('knowledge.baseDetail.noDocuments')}>{t('knowledge.baseDetail.uploadAFileOrCrawl')}</Empty>}>
          {(rows) => (
            <Table
              caption={t('knowledge.baseDetail.documents')}
              rows={rows}
              rowKey={(d) => d.id}
              columns={[
                {
                  label: t('knowledge.baseDetail.title'),
                  render: (d) =>
                    d.source_url ? (
                      <a href={d.source_url} target="_blank" rel="noopener noreferrer">
                        {d.title}
                      </a>
                    ) : (
                      d.title
                    ),
                },
                {
                  label: t('knowledge.baseDetail.status'),
                  render: (d) => (
                    <>
                      <StatusBadge status={d.status} />
                      {d.error && <p class="hint">{d.error}</p>}
                    </>
                  ),
                },
                { label: t('knowledge.baseDetail.format'), render: (d) => d.format },
                { label: t('knowledge.baseDetail.origin'), render: (d) => d.origin },
                { label: t('knowledge.baseDetail.size'), class: 'num', render: (d) => formatBytes(d.size_bytes) },
                { label: t('knowledge.baseDetail.chunks'), class: 'num', render: (d) => d.chunk_count },
                { label: t('knowledge.baseDetail.added'), render: (d) => <Time iso={d.created_at} /> },
              ]}
            />
          )}
        </PagedList>
      </section>
    </Page>
  )
}
