import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, Notice, ProblemView, Time } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { KnowledgeCrawl } from './common.js'
import { StatusBadge } from './common.js'
import { statusLabel, t } from '../../i18n/index.js'

/** Starts a website crawl into a base. The caller polls the base's `last_crawl` while it runs. */
export function CrawlForm({ baseId, busy, onStarted }: { baseId: string; busy: boolean; onStarted: (c: KnowledgeCrawl) => void }) {
  const { api } = useWorkspace()
  const [url, setUrl] = useState('')
  const [maxPages, setMaxPages] = useState('50')
  const start = useAction(async () => {
    const crawl = await ok(api.client.POST('/knowledge/crawl', { body: { knowledge_base_id: baseId, url, max_pages: Number(maxPages) || undefined } }))
    onStarted(crawl as KnowledgeCrawl)
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void start.run()
      }}
    >
      <Field label={t('knowledge.crawl.websiteUrl')} hint={t('knowledge.crawl.aPageItsLinksAre')}>
        {(id, hint) => <input id={id} type="url" required aria-describedby={hint} placeholder="https://help.example.com/" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
      </Field>
      <Field label={t('knowledge.crawl.pagesAtMost')}>{(id) => <input id={id} type="number" min={1} max={1000} value={maxPages} onInput={(e) => setMaxPages(e.currentTarget.value)} />}</Field>
      {start.error && <ProblemView problem={start.error} />}
      <div class="form-actions">
        <button type="submit" disabled={start.pending || busy || !url}>
          {busy ? t('knowledge.crawl.crawlInProgress') : start.pending ? t('knowledge.crawl.starting') : t('knowledge.crawl.startCrawl')}
        </button>
      </div>
    </form>
  )
}

/** A crawl's progress: its status, pages handled out of those found, and its counts. */
export function CrawlProgress({ crawl }: { crawl: KnowledgeCrawl }) {
  const c = crawl.counts ?? { found: 0, indexed: 0, unchanged: 0, skipped: 0, failed: 0, removed: 0 }
  const done = c.indexed + c.unchanged + c.skipped + c.failed
  const running = crawl.status === 'queued' || crawl.status === 'running'
  const id = `crawl-progress-${crawl.id}`
  return (
    <div class="crawl-progress">
      <p>
        {t('knowledge.crawl.crawlOf')} <code>{crawl.url}</code>: <StatusBadge status={crawl.status} /> {t('knowledge.crawl.started')} <Time iso={crawl.started_at ?? crawl.created_at} />
        {crawl.finished_at && (
          <>
            {' '}
            {t('knowledge.crawl.finished')} <Time iso={crawl.finished_at} />
          </>
        )}
      </p>
      <div class="field">
        <label for={id}>{t('knowledge.crawl.crawlProgress')}</label>
        {running && c.found === 0 ? <progress id={id} /> : <progress id={id} max={Math.max(c.found, 1)} value={running ? done : Math.max(c.found, 1)} />}{' '}
        <span>{t('knowledge.crawl.doneOfFoundPages', { done, found: c.found })}</span>
      </div>
      <p>{t('knowledge.crawl.indexedIndexedUnchangedUnchangedSkipped', { indexed: c.indexed, unchanged: c.unchanged, skipped: c.skipped, failed: c.failed, removed: c.removed })}</p>
      {crawl.error && <Notice tone={crawl.status === 'failed' ? 'bad' : 'warn'}>{crawl.error}</Notice>}
      {!running && <Notice tone={crawl.status === 'failed' ? 'bad' : 'good'}>{t('knowledge.crawl.crawlStatus', { status: statusLabel(crawl.status) })}</Notice>}
    </div>
  )
}
