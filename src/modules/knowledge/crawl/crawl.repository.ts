import { countPerDay } from '../../../kernel/db/count-per-day.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Executor } from '../../../kernel/db/database.js'
import type { Tenant } from '../../../kernel/tenant.js'
import '../../../kernel/db/kernel.tables.js'
import '../knowledge.tables.js'
import './crawl.tables.js'
import type { KnowledgeCrawlsTable } from './crawl.tables.js'

// The only SQL of crawls. Tenant functions take the tenant first; another workspace's crawl is not found.

export async function insertCrawl(db: Executor, row: KnowledgeCrawlsTable): Promise<void> {
  await db.insertInto('knowledge_crawls').values(row).execute()
}

export function findCrawl(db: Executor, tenant: Tenant, id: string): Promise<KnowledgeCrawlsTable | undefined> {
  return scoped(db, tenant).selectFrom('knowledge_crawls').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The crawl of a base that is queued or running, if any (one at a time per base). */
export function activeCrawlOfBase(db: Executor, tenant: Tenant, kbId: string): Promise<Pick<KnowledgeCrawlsTable, 'id' | 'status'> | undefined> {
  return scoped(db, tenant).selectFrom('knowledge_crawls').select(['id', 'status']).where('knowledge_base_id', '=', kbId).where('status', 'in', ['queued', 'running']).executeTakeFirst()
}

export async function updateCrawl(db: Executor, tenant: Tenant, id: string, patch: Partial<KnowledgeCrawlsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('knowledge_crawls').set(patch).where('id', '=', id).execute()
}

export async function deleteCrawlsOfBase(db: Executor, tenant: Tenant, kbId: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('knowledge_crawls').where('knowledge_base_id', '=', kbId).execute()
}

/**
 * Source URLs this crawl already wrote since it started: after a restart (the worker died mid-crawl) these
 * pages come back unchanged, but this crawl indexed them, and counts them so.
 */
export async function pagesWrittenBy(db: Executor, tenant: Tenant, kbId: string, crawlId: string, since: string): Promise<string[]> {
  const rows = await scoped(db, tenant)
    .selectFrom('knowledge_documents')
    .select('source_url')
    .where('knowledge_base_id', '=', kbId)
    .where('crawl_id', '=', crawlId)
    .where('updated_at', '>=', since)
    .execute()
  return rows.flatMap((r) => (r.source_url ? [r.source_url] : []))
}

/** Crawled pages (fetched: indexed or unchanged) per UTC day of the crawl's end, for the usage report. */
export const crawledPagesByDay = (db: Executor, tenant: Tenant, from: string, to: string): Promise<{ day: string; count: number }[]> =>
  countPerDay(db, tenant, 'knowledge_crawls', from, to, { at: 'finished_at', sum: ['indexed_count', 'unchanged_count'] })
