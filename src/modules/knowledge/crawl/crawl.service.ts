import { iso } from '../../../kernel/clock.js'
import { toJson, type Tx } from '../../../kernel/db/database.js'
import { AppError, notFound } from '../../../kernel/errors.js'
import { newId } from '../../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../../../kernel/outbound/address-policy.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { KnowledgeDocumentsService } from '../knowledge-documents.service.js'
import { crawlSiteJob, type CrawlSitePayload } from './crawl-site.job.js'
import { canonicalUrl, patternProblems } from './crawl-urls.js'
import * as repo from './crawl.repository.js'
import { CRAWL_LIMITS, type CrawlKnowledgeSourceBodyT, type KnowledgeCrawlT } from './crawl.schemas.js'
import type { KnowledgeCrawlsTable } from './crawl.tables.js'
import { crawlView } from './crawl.views.js'
import { referenced } from '../../../kernel/references.js'

/** What crawls need of the documents service (its crawler seam). */
export type CrawlDocuments = Pick<KnowledgeDocumentsService, 'upsertFromSource' | 'sourcePages' | 'removeDocuments' | 'setLastCrawl' | 'findBaseOr404'>

/** The usage counter of crawls: pages fetched (indexed or unchanged), per UTC day the crawl finished. */
export const CRAWLED_PAGES_METRIC = 'knowledge_crawled_pages'

/** Crawls (crl_…): started by POST /knowledge/crawl, run by the crawl-site job, summarised on the base. */
export class KnowledgeCrawlsService {
  readonly job: JobDefinition<CrawlSitePayload>

  constructor(
    private readonly k: Kernel,
    private readonly docs: CrawlDocuments,
  ) {
    this.job = crawlSiteJob(k, docs)
  }

  async start(tenant: Tenant, body: CrawlKnowledgeSourceBodyT): Promise<KnowledgeCrawlT> {
    const url = await this.checkStartUrl(body.url)
    const problems = [
      ...patternProblems(body.include ?? []).map((detail) => ({ pointer: '/body/include', detail })),
      ...patternProblems(body.exclude ?? []).map((detail) => ({ pointer: '/body/exclude', detail })),
    ]
    if (problems.length) throw new AppError('validation_failed', problems[0].detail, { errors: problems })
    const options: KnowledgeCrawlT['options'] = {
      max_pages: body.max_pages ?? CRAWL_LIMITS.maxPages.default,
      max_depth: body.max_depth ?? CRAWL_LIMITS.maxDepth.default,
      include: body.include ?? [],
      exclude: body.exclude ?? [],
      same_site: body.same_site ?? true,
    }
    return this.k.transaction(tenant, async (tx) => {
      await referenced('/body/knowledge_base_id', () => this.docs.findBaseOr404(tx, tenant, body.knowledge_base_id))
      const active = await repo.activeCrawlOfBase(tx, tenant, body.knowledge_base_id)
      if (active) {
        throw new AppError('knowledge_crawl_in_progress', `The crawl ${active.id} of this knowledge base is ${active.status}; start another when it has finished.`, {
          crawl_id: active.id,
        })
      }
      const now = iso(this.k.clock.now())
      const row: KnowledgeCrawlsTable = {
        id: newId('crl'),
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        knowledge_base_id: body.knowledge_base_id,
        url,
        options: toJson(options),
        status: 'queued',
        found_count: 0,
        indexed_count: 0,
        unchanged_count: 0,
        skipped_count: 0,
        failed_count: 0,
        removed_count: 0,
        skipped_samples: '[]',
        failed_samples: '[]',
        complete: null,
        error: null,
        created_at: now,
        started_at: null,
        finished_at: null,
        updated_at: now,
      }
      await repo.insertCrawl(tx, row)
      const view = crawlView(row)
      await this.docs.setLastCrawl(tx, tenant, row.knowledge_base_id, view)
      await enqueue(tx, this.k.clock, this.job, { crawl_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode })
      return view
    })
  }

  async get(tenant: Tenant, id: string): Promise<KnowledgeCrawlT> {
    const row = await repo.findCrawl(this.k.db, tenant, id)
    if (!row) throw notFound('knowledge crawl', id)
    return crawlView(row)
  }

  /** Attached to a base's deletion (KnowledgeBasesService.cleanups): its crawls go with it. */
  readonly cleanup = (tx: Tx, tenant: Tenant, kbId: string): Promise<void> => repo.deleteCrawlsOfBase(tx, tenant, kbId)

  async usage(tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
    const rows = await repo.crawledPagesByDay(this.k.db, tenant, from, to)
    return rows.map((r) => ({ day: r.day, metric: CRAWLED_PAGES_METRIC, count: r.count }))
  }

  /** The start URL: absolute http(s), no credentials, and a destination the outbound policy allows, now. */
  private async checkStartUrl(raw: string): Promise<string> {
    const fail = (detail: string, code: 'validation_failed' | 'knowledge_crawl_url_forbidden') => new AppError(code, detail, { errors: [{ pointer: '/body/url', detail }] })
    const url = canonicalUrl(raw)
    if (!url) throw fail('The url must be an absolute http or https URL.', 'validation_failed')
    if (new URL(raw).username || new URL(raw).password) throw fail('The url must not contain credentials.', 'validation_failed')
    const allowPrivateNetworks = this.k.config.outbound.allowPrivateNetworks
    try {
      await checkOutboundUrl(url, { allowPrivateNetworks })
    } catch (err) {
      if (!(err instanceof OutboundUrlRefused)) throw err
      // Where private networks are allowed a name may resolve only later (offline tests, a site being set up);
      // every fetch of the crawl still checks the address it connects to.
      if (err.reason === 'unresolvable' && allowPrivateNetworks) return url
      const hint =
        err.verdict?.class === 'private'
          ? ' Crawls of loopback and private networks are refused unless the operator sets OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.'
          : err.verdict?.class === 'forbidden'
            ? ' Link-local and cloud metadata addresses are refused in every configuration.'
            : ''
      throw fail(`${err.message}${hint}`, 'knowledge_crawl_url_forbidden')
    }
    return url
  }
}
