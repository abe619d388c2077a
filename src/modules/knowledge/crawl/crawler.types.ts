import type { FetchPolicy } from './crawl-fetcher.js'

/** A page the knowledge base already holds from an earlier crawl (by canonical URL). */
export interface PreviousPage {
  url: string
  etag: string | null
  lastModified: string | null
  /** sha256 hex of the raw body last indexed. */
  checksum: string
}

export interface CrawlOptions {
  /** A page (crawled breadth-first from there) or a sitemap / sitemap index (its pages are the seeds). */
  url: string
  /** Pages fetched at most (robots.txt and sitemaps not counted). */
  maxPages?: number
  /** Link hops from the start page or a sitemap entry (0 = only those). */
  maxDepth?: number
  /** Path patterns, see compileUrlFilter in crawl-urls.ts. */
  include?: string[]
  exclude?: string[]
  /** Follow links only within the start URL's site (host, ignoring `www.`). Default true. */
  sameSite?: boolean
  previous?: PreviousPage[]
  policy: FetchPolicy
  userAgent?: string
  /** The product token matched against robots.txt User-agent lines. */
  robotsAgent?: string
  perHostConcurrency?: number
  minDelayMs?: number
  /** robots.txt Crawl-delay is honoured up to this. */
  maxCrawlDelayMs?: number
  timeoutMs?: number
  maxBodyBytes?: number
  maxSitemapBytes?: number
  maxRedirects?: number
  /** Read the site's sitemaps (robots.txt Sitemap: lines, else /sitemap.xml) for more seeds. */
  sitemaps?: boolean
  /** Pages fetched at once over all hosts (each host is still held to perHostConcurrency). */
  workers?: number
  signal?: AbortSignal
}

export const CRAWL_DEFAULTS = {
  maxPages: 100,
  maxDepth: 3,
  sameSite: true,
  userAgent: 'SvcKnowledgeBot/1.0 (+https://github.com/conversational-automation-service; knowledge crawler)',
  robotsAgent: 'SvcKnowledgeBot',
  perHostConcurrency: 2,
  minDelayMs: 250,
  maxCrawlDelayMs: 30_000,
  timeoutMs: 15_000,
  maxBodyBytes: 5 * 1024 * 1024,
  maxSitemapBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
  sitemaps: true,
  workers: 4,
} satisfies Partial<CrawlOptions>

export type CrawlEvent =
  /** A new or changed page: its raw body, to be indexed under `url` (the canonical URL of the page). */
  | {
      kind: 'page'
      url: string
      requestedUrl: string
      finalUrl: string
      depth: number
      body: Buffer
      contentType: string
      format: 'html' | 'text'
      title: string | null
      etag: string | null
      lastModified: string | null
      checksum: string
    }
  /**
   * Known and unchanged: 304 Not Modified (`notModified`, no body), or the same sha256 as before (`content`
   * is then the body read, so the caller can refresh what it stores with it).
   */
  | {
      kind: 'unchanged'
      url: string
      etag: string | null
      lastModified: string | null
      checksum: string
      notModified: boolean
      content: { body: Buffer; contentType: string; format: 'html' | 'text'; title: string | null } | null
    }
  | { kind: 'skipped'; url: string; reason: string }
  /** `transient`: may work next time (network, timeout, 5xx, 429); the page, if known, is kept. */
  | { kind: 'failed'; url: string; reason: string; transient: boolean }

export interface CrawlSummary {
  counts: { found: number; pages: number; unchanged: number; skipped: number; failed: number; removed: number }
  /**
   * Complete: nothing was left to visit (page limit not reached), no page failed for a reason that may pass
   * (network, timeout, 5xx, 429, robots.txt unreadable), it was not stopped, and at least one page was read.
   * Only a complete crawl removes known pages for no longer being linked.
   */
  complete: boolean
  incompleteReason: string | null
  /** Known pages to remove: gone (404/410), now disallowed, noindex or not HTML/text — or unlinked in a complete crawl. */
  removed: { url: string; reason: string }[]
  /** Sitemaps that could not be read, and why. */
  notes: string[]
  startOutcome: 'page' | 'sitemap'
  /** Why the start URL itself gave no page (refused, failed, skipped), when it did not. */
  startError: string | null
}
