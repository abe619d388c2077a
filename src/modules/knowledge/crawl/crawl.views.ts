import { fromJson } from '../../../kernel/db/database.js'
import type { KnowledgeCrawlT } from './crawl.schemas.js'
import type { KnowledgeCrawlsTable } from './crawl.tables.js'

type Samples = { url: string; reason: string }[]

export function crawlView(r: KnowledgeCrawlsTable): KnowledgeCrawlT {
  return {
    id: r.id,
    object: 'knowledge_crawl',
    knowledge_base_id: r.knowledge_base_id,
    url: r.url,
    status: r.status,
    options: fromJson<KnowledgeCrawlT['options']>(r.options, { max_pages: 0, max_depth: 0, include: [], exclude: [], same_site: true }),
    counts: {
      found: Number(r.found_count),
      indexed: Number(r.indexed_count),
      unchanged: Number(r.unchanged_count),
      skipped: Number(r.skipped_count),
      failed: Number(r.failed_count),
      removed: Number(r.removed_count),
    },
    skipped: fromJson<Samples>(r.skipped_samples, []),
    failed: fromJson<Samples>(r.failed_samples, []),
    complete: r.complete === null ? null : Number(r.complete) === 1,
    error: r.error,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    updated_at: r.updated_at,
  }
}
