// The durable crawl: one job per crawl. A worker that dies mid-crawl leaves the job to be claimed again when
// its lease expires; the crawl then starts over from the start URL. Nothing is duplicated: a page's
// document is found by (base, source URL), so pages already written come back as unchanged (and are counted
// as indexed by this crawl, since it wrote them).
import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../../kernel/db/database.js'
import { defineJob, extendLease, type JobContext, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import { canonicalUrl } from './crawl-urls.js'
import * as repo from './crawl.repository.js'
import { SAMPLE_LIMIT, type KnowledgeCrawlT } from './crawl.schemas.js'
import type { CrawlDocuments } from './crawl.service.js'
import type { KnowledgeCrawlsTable } from './crawl.tables.js'
import { crawlView } from './crawl.views.js'
import { crawlSite, CrawlInputError, type CrawlEvent, type CrawlSummary } from './crawler.js'

export interface CrawlSitePayload {
  crawl_id: string
  workspace_id: string
  mode: Mode
}

const RETRY_SCHEDULE = [5, 30, 120, 600]

/** Progress is written at most this often (and with every page's document, in its transaction). */
const PROGRESS_EVERY_MS = 1000

/** Counts and samples of one run, written onto the crawl row. */
class Tally {
  found = 0
  indexed = 0
  unchanged = 0
  skipped = 0
  failed = 0
  removed = 0
  readonly skippedSamples: { url: string; reason: string }[] = []
  readonly failedSamples: { url: string; reason: string }[] = []

  note(list: 'skipped' | 'failed', url: string, reason: string): void {
    this[list]++
    const samples = list === 'skipped' ? this.skippedSamples : this.failedSamples
    if (samples.length < SAMPLE_LIMIT) samples.push({ url, reason: reason.slice(0, 500) })
  }

  columns(): Partial<KnowledgeCrawlsTable> {
    return {
      found_count: this.found,
      indexed_count: this.indexed,
      unchanged_count: this.unchanged,
      skipped_count: this.skipped,
      failed_count: this.failed,
      removed_count: this.removed,
      skipped_samples: toJson(this.skippedSamples),
      failed_samples: toJson(this.failedSamples),
    }
  }
}

export function crawlSiteJob(k: Kernel, docs: CrawlDocuments): JobDefinition<CrawlSitePayload> {
  const job: JobDefinition<CrawlSitePayload> = defineJob<CrawlSitePayload>({
    name: 'knowledge.crawl_site',
    // Only infrastructure errors (database down) retry; what a site answers is recorded on the crawl.
    retrySchedule: RETRY_SCHEDULE,
    run: (p, ctx) => runOrGiveUp(p, ctx),
  })

  const now = () => iso(k.clock.now())

  /** Writes the row and mirrors it onto the base's last_crawl, in one transaction. */
  async function save(tenant: Tenant, row: KnowledgeCrawlsTable, patch: Partial<KnowledgeCrawlsTable>): Promise<KnowledgeCrawlsTable> {
    const next = { ...row, ...patch, updated_at: now() }
    await k.transaction(sideOwner(tenant), async (tx) => {
      if (!(await lockBase(tx, tenant, row.knowledge_base_id)) || !(await repo.findCrawl(tx, tenant, row.id))) return // the base was deleted meanwhile
      await repo.updateCrawl(tx, tenant, row.id, { ...patch, updated_at: next.updated_at })
      await docs.setLastCrawl(tx, tenant, row.knowledge_base_id, crawlView(next))
    })
    return next
  }

  /**
   * Locks the base before the crawl row: a base's deletion locks the base, then deletes its crawls, so the
   * other order deadlocks with it on PostgreSQL. False when the base is gone.
   */
  async function lockBase(tx: Tx, tenant: Tenant, kbId: string): Promise<boolean> {
    return docs.findBaseOr404(tx, tenant, kbId, { forUpdate: true }).then(
      () => true,
      () => false,
    )
  }

  async function baseExists(tenant: Tenant, kbId: string): Promise<boolean> {
    return docs.findBaseOr404(k.db, tenant, kbId).then(
      () => true,
      () => false,
    )
  }

  /** On the last attempt an error ends the crawl as failed: a crawl left `running` would block the base's next one. */
  async function runOrGiveUp(p: CrawlSitePayload, ctx: JobContext): Promise<void> {
    try {
      await run(p, ctx)
    } catch (err) {
      if (ctx.attempt <= RETRY_SCHEDULE.length) throw err
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const row = await repo.findCrawl(k.db, tenant, p.crawl_id)
      if (!row || row.status === 'completed' || row.status === 'failed') return
      k.log.error({ err, crawlId: row.id }, 'crawl failed on an internal error')
      await finish(tenant, row, null, { status: 'failed', complete: 0, error: 'The crawl stopped on an internal error; start it again.' }, [])
    }
  }

  async function run(p: CrawlSitePayload, ctx: JobContext): Promise<void> {
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
    let row = await repo.findCrawl(k.db, tenant, p.crawl_id)
    if (!row || row.status === 'completed' || row.status === 'failed') return
    const kbId = row.knowledge_base_id
    if (!(await baseExists(tenant, kbId))) return
    const restarted = row.status === 'running'
    const startedAt = row.started_at ?? now()
    const tally = new Tally()
    row = await save(tenant, row, { status: 'running', started_at: startedAt, ...tally.columns() })

    const previous = await docs.sourcePages(k.db, tenant, kbId)
    const idByUrl = new Map(previous.map((d) => [canonicalUrl(d.sourceUrl) ?? d.sourceUrl, d.id]))
    const writtenBefore = new Set(restarted ? await repo.pagesWrittenBy(k.db, tenant, kbId, row.id, startedAt) : [])
    const options = fromJson<KnowledgeCrawlT['options']>(row.options, { max_pages: 100, max_depth: 3, include: [], exclude: [], same_site: true })

    const controller = new AbortController()
    const stopLease = keepLease(ctx, controller)
    let lastFlush = Date.now()
    const current = row
    const onEvent = async (e: CrawlEvent): Promise<void> => {
      tally.found++
      if (e.kind === 'skipped' || e.kind === 'failed') {
        tally.note(e.kind, e.url, e.reason)
        if (Date.now() - lastFlush >= PROGRESS_EVERY_MS) {
          lastFlush = Date.now()
          await k.transaction(sideOwner(tenant), (tx) => repo.updateCrawl(tx, tenant, current.id, { ...tally.columns(), updated_at: now() }))
        }
        return
      }
      const content = e.kind === 'page' ? e : e.content
      if (!content) {
        // 304 Not Modified: nothing to write (a page this crawl wrote before a restart still counts as indexed).
        if (writtenBefore.has(e.url)) tally.indexed++
        else tally.unchanged++
        return
      }
      await k.transaction(sideOwner(tenant), async (tx) => {
        const r = await docs.upsertFromSource(tx, tenant, kbId, {
          sourceUrl: e.url,
          title: content.title,
          body: content.body,
          format: content.format,
          contentType: content.contentType,
          checksum: e.checksum,
          crawlId: current.id,
          etag: e.etag,
          lastModified: e.lastModified,
        })
        if (r.outcome !== 'unchanged' || writtenBefore.has(e.url)) tally.indexed++
        else tally.unchanged++
        await repo.updateCrawl(tx, tenant, current.id, { ...tally.columns(), updated_at: now() })
      })
      lastFlush = Date.now()
    }

    let summary: CrawlSummary
    try {
      summary = await crawlSite(
        {
          url: row.url,
          maxPages: options.max_pages,
          maxDepth: options.max_depth,
          include: options.include,
          exclude: options.exclude,
          sameSite: options.same_site,
          previous: previous.map((d) => ({ url: d.sourceUrl, etag: d.etag, lastModified: d.lastModified, checksum: d.checksum })),
          policy: { allowPrivateNetworks: k.config.outbound.allowPrivateNetworks },
          signal: controller.signal,
        },
        onEvent,
      )
    } catch (err) {
      if (err instanceof CrawlInputError) {
        await finish(tenant, row, tally, { status: 'failed', complete: 0, error: err.message }, [])
        return
      }
      // The base went away mid-crawl (its crawls went with it), or the lease was lost: nothing to record.
      if (!(await baseExists(tenant, kbId)) || controller.signal.aborted) return
      throw err
    } finally {
      stopLease()
    }
    if (controller.signal.aborted) return // another worker holds the job now

    const fetched = tally.indexed + tally.unchanged
    const failed = fetched === 0 && summary.startError !== null
    const removeIds = summary.removed.flatMap((r) => (idByUrl.has(r.url) ? [idByUrl.get(r.url)!] : []))
    tally.found = summary.counts.found
    tally.removed = removeIds.length
    await finish(
      tenant,
      row,
      tally,
      {
        status: failed ? 'failed' : 'completed',
        complete: summary.complete ? 1 : 0,
        error: failed ? `Nothing could be crawled: ${summary.startError}` : summary.incompleteReason,
      },
      removeIds,
    )
  }

  /** The end, in one transaction: removed pages' documents deleted, the row and last_crawl written, the event emitted. */
  async function finish(tenant: Tenant, row: KnowledgeCrawlsTable, tally: Tally | null, end: Pick<KnowledgeCrawlsTable, 'status' | 'complete' | 'error'>, removeIds: string[]): Promise<void> {
    const at = now()
    // Without a tally (gave up on an error) the counts written so far stay.
    const patch = { ...tally?.columns(), ...end, finished_at: at, updated_at: at }
    await k.transaction(sideOwner(tenant), async (tx) => {
      if (!(await lockBase(tx, tenant, row.knowledge_base_id)) || !(await repo.findCrawl(tx, tenant, row.id))) return // the base was deleted meanwhile
      if (removeIds.length) await docs.removeDocuments(tx, tenant, removeIds)
      await repo.updateCrawl(tx, tenant, row.id, patch)
      const view = crawlView({ ...row, ...patch })
      await docs.setLastCrawl(tx, tenant, row.knowledge_base_id, view)
      await k.events.emit(tx, tenant, 'knowledge_crawl.completed', view)
    })
  }

  /** Renews the job's lease while the crawl runs (a crawl can outlast JOB_LEASE_SECONDS); aborts when lost. */
  function keepLease(ctx: JobContext, controller: AbortController): () => void {
    const lease = ctx.lease
    if (!lease) return () => {}
    const seconds = k.config.jobLeaseSeconds
    const timer = setInterval(
      () => {
        extendLease(k.db, k.clock, lease, seconds)
          .then((held) => {
            if (!held) controller.abort()
          })
          .catch(() => {}) // a passing database error: the next tick tries again before the lease runs out
      },
      Math.max(1000, (seconds * 1000) / 3),
    )
    timer.unref()
    return () => clearInterval(timer)
  }

  return job
}
