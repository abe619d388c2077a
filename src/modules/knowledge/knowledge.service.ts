import { iso } from '../../kernel/clock.js'
import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import { crawledPagesByDay } from './crawl/crawl.repository.js'
import { CRAWLED_PAGES_METRIC, KnowledgeCrawlsService } from './crawl/crawl.service.js'
import { deleteKnowledgeBaseJob } from './jobs/delete-knowledge-base.job.js'
import { processDocumentJob, type ReadyFollowUp } from './jobs/process-document.job.js'
import { reprocessKnowledgeBaseJob } from './jobs/reprocess-knowledge-base.job.js'
import { resolveGapsJob } from './jobs/resolve-gaps.job.js'
import { KnowledgeBasesService } from './knowledge-bases.service.js'
import { KnowledgeDocumentsService } from './knowledge-documents.service.js'
import { KnowledgeGapsService } from './knowledge-gaps.service.js'
import { KnowledgeSearchService } from './knowledge-search.service.js'
import { searchesPerDay } from './knowledge-index.repository.js'
import * as repo from './knowledge.repository.js'

/** A document waiting longer than this means no worker is processing (or it cannot keep up). */
const BACKLOG_DEGRADED_SECONDS = 600

/**
 * `services.knowledge`: one service per resource — bases, documents, search, gaps, crawls — plus the
 * module's jobs, health and usage. Other modules reach knowledge only through here (e.g. the inbox's AI
 * drafts: `services.knowledge.search.passages(...)`).
 */
export class KnowledgeService {
  readonly bases: KnowledgeBasesService
  readonly documents: KnowledgeDocumentsService
  readonly search: KnowledgeSearchService
  readonly gaps: KnowledgeGapsService
  readonly crawls: KnowledgeCrawlsService
  /** Every job of the module, registered by knowledge.module.ts. */
  readonly jobs: JobDefinition[]

  constructor(private readonly k: Kernel) {
    let followUp: ReadyFollowUp | null = null
    const process = processDocumentJob(k, () => followUp)
    const deleteBase = deleteKnowledgeBaseJob(k, () => this.bases)
    const reprocessBase = reprocessKnowledgeBaseJob(k, process)
    this.bases = new KnowledgeBasesService(k, { deleteBase, reprocessBase })
    this.documents = new KnowledgeDocumentsService(k, this.bases, process)

    // ---- SEARCH: search, gaps (a deleted base leaves them), and the job a ready document hands on to ----
    this.gaps = new KnowledgeGapsService(k)
    this.search = new KnowledgeSearchService(k, this.gaps)
    const resolveGaps = resolveGapsJob(k, this.search, this.gaps)
    followUp = resolveGaps
    this.bases.cleanups.push(this.gaps.detachBase)

    // ---- CRAWL: crawls over the documents' crawler seam; a deleted base's crawls go with it ----
    this.crawls = new KnowledgeCrawlsService(k, this.documents)
    this.bases.cleanups.push(this.crawls.cleanup)

    this.jobs = [process, deleteBase, reprocessBase, resolveGaps, this.crawls.job]
  }

  /** Tables answer; documents are not piling up unprocessed; the embeddings provider when configured. */
  async health(): Promise<ModuleHealth> {
    const now = this.k.clock.now()
    const b = await repo.backlog(this.k.db)
    const age = b.oldest ? Math.max(0, Math.round((now.getTime() - Date.parse(b.oldest)) / 1000)) : 0
    return {
      status: age > BACKLOG_DEGRADED_SECONDS ? 'degraded' : 'ok',
      ...(age > BACKLOG_DEGRADED_SECONDS ? { detail: `A document has waited ${age} s for processing: are workers running?` } : {}),
      documents_waiting: b.waiting,
      oldest_waiting_document_age_seconds: age,
      ranking: this.k.embeddings ? 'hybrid' : 'keyword',
      checked_at: iso(now),
    }
  }
}

/** Usage counters per UTC day: documents and chunks created, searches, crawled pages. */
export async function knowledgeUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const [documents, chunks, searches, pages] = await Promise.all([
    countPerDay(k.db, tenant, 'knowledge_documents', from, to),
    countPerDay(k.db, tenant, 'knowledge_chunks', from, to),
    searchesPerDay(k.db, tenant, from, to),
    crawledPagesByDay(k.db, tenant, from, to),
  ])
  return [
    ...documents.map((r) => ({ ...r, metric: 'knowledge_documents' })),
    ...chunks.map((r) => ({ ...r, metric: 'knowledge_chunks' })),
    ...searches.map((r) => ({ day: r.day, metric: 'knowledge_searches', count: r.count })),
    ...pages.map((r) => ({ day: r.day, metric: CRAWLED_PAGES_METRIC, count: r.count })),
  ]
}

declare module '../../kernel/services.js' {
  interface Services {
    knowledge: KnowledgeService
  }
}
