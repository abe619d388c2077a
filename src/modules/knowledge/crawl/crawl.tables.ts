import type { Mode } from '../../../kernel/tenant.js'

export type CrawlStatus = 'queued' | 'running' | 'completed' | 'failed'

/** One crawl of a site into a knowledge base (crl_…): what was asked, where it stands, what it found. */
export interface KnowledgeCrawlsTable {
  id: string
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  /** The start URL (a page or a sitemap), canonicalised. */
  url: string
  /** JSON {max_pages, max_depth, include, exclude, same_site}. */
  options: string
  status: CrawlStatus
  found_count: number
  indexed_count: number
  unchanged_count: number
  skipped_count: number
  failed_count: number
  removed_count: number
  /** JSON [{url, reason}], at most SAMPLE_LIMIT each. */
  skipped_samples: string
  failed_samples: string
  /** 1 when nothing was left to visit and nothing failed for a passing reason (see docs/knowledge.md). */
  complete: number | null
  /** Why the crawl stopped short (page limit, failures) or failed. */
  error: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  updated_at: string
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    knowledge_crawls: KnowledgeCrawlsTable
  }
}
