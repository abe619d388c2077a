import { sql, SqliteAdapter } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './knowledge.tables.js'
import type { DocumentStatus, KnowledgeBasesTable, KnowledgeChunksTable, KnowledgeDocumentSourcesTable, KnowledgeDocumentsTable } from './knowledge.tables.js'
import type { DocumentViewRow } from './knowledge.views.js'

// The only SQL of bases, documents and chunks (the search index has its own repository). Every function
// takes the tenant first; another workspace's row is simply not found.

type Page = { after: string | null; limit: number }

/** Row locks exist on PostgreSQL only; SQLite has a single writer (and no FOR UPDATE). */
const lockable = (db: Executor, forUpdate: boolean | undefined): boolean => !!forUpdate && !(db.getExecutor().adapter instanceof SqliteAdapter)

/** Rows per insert statement: under both engines' bound-parameter limits with a dozen columns. */
const BATCH = 400

const DOCUMENT_VIEW_COLUMNS = [
  'id',
  'workspace_id',
  'mode',
  'knowledge_base_id',
  'title',
  'filename',
  'content_type',
  'format',
  'origin',
  'source_url',
  'crawl_id',
  'etag',
  'last_modified',
  'checksum',
  'dedupe_key',
  'size_bytes',
  'status',
  'error',
  'page_count',
  'chunk_count',
  'metadata',
  'created_at',
  'updated_at',
] as const

// ---- bases ----

export async function insertBase(db: Executor, row: KnowledgeBasesTable): Promise<void> {
  await db.insertInto('knowledge_bases').values(row).execute()
}

/** A base that is not being deleted; `forUpdate` locks it on PostgreSQL (counters, settings). */
export function findBase(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<KnowledgeBasesTable | undefined> {
  const q = scoped(db, tenant).selectFrom('knowledge_bases').selectAll().where('id', '=', id).where('deleting', '=', 0)
  return (lockable(db, opts.forUpdate) ? q.forUpdate() : q).executeTakeFirst()
}

/** Also a base being deleted (the deletion job). */
export function findBaseAnyState(db: Executor, tenant: Tenant, id: string): Promise<KnowledgeBasesTable | undefined> {
  return scoped(db, tenant).selectFrom('knowledge_bases').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listBases(db: Executor, tenant: Tenant, page: Page): Promise<KnowledgeBasesTable[]> {
  let q = scoped(db, tenant).selectFrom('knowledge_bases').selectAll().where('deleting', '=', 0)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateBase(db: Executor, tenant: Tenant, id: string, patch: Partial<KnowledgeBasesTable>): Promise<void> {
  await scoped(db, tenant).updateTable('knowledge_bases').set(patch).where('id', '=', id).execute()
}

/** Relative counter changes: concurrent writers of one base never lose an update. */
export async function adjustBaseCounts(db: Executor, tenant: Tenant, id: string, delta: { documents?: number; chunks?: number }, now: string): Promise<void> {
  const d = delta.documents ?? 0
  const c = delta.chunks ?? 0
  if (d === 0 && c === 0) return
  await scoped(db, tenant)
    .updateTable('knowledge_bases')
    .set((eb) => ({ document_count: eb('document_count', '+', d), chunk_count: eb('chunk_count', '+', c), updated_at: now }))
    .where('id', '=', id)
    .execute()
}

export async function deleteBaseRow(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('knowledge_bases').where('id', '=', id).execute()
}

// ---- documents ----

export async function insertDocument(db: Executor, row: KnowledgeDocumentsTable): Promise<void> {
  await db.insertInto('knowledge_documents').values(row).execute()
}

export function findDocument(db: Executor, tenant: Tenant, id: string): Promise<DocumentViewRow | undefined> {
  return scoped(db, tenant).selectFrom('knowledge_documents').select(DOCUMENT_VIEW_COLUMNS).where('id', '=', id).executeTakeFirst()
}

/** With its text and parse structure (processing, include=text). */
export function findDocumentFull(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<KnowledgeDocumentsTable | undefined> {
  const q = scoped(db, tenant).selectFrom('knowledge_documents').selectAll().where('id', '=', id)
  return (lockable(db, opts.forUpdate) ? q.forUpdate() : q).executeTakeFirst()
}

export function findDuplicate(db: Executor, tenant: Tenant, kbId: string, checksum: string): Promise<DocumentViewRow | undefined> {
  return scoped(db, tenant).selectFrom('knowledge_documents').select(DOCUMENT_VIEW_COLUMNS).where('knowledge_base_id', '=', kbId).where('dedupe_key', '=', checksum).executeTakeFirst()
}

export function findBySourceUrl(db: Executor, tenant: Tenant, kbId: string, sourceUrl: string): Promise<DocumentViewRow | undefined> {
  return scoped(db, tenant)
    .selectFrom('knowledge_documents')
    .select(DOCUMENT_VIEW_COLUMNS)
    .where('knowledge_base_id', '=', kbId)
    .where('source_url', '=', sourceUrl)
    .where('origin', '=', 'crawl')
    .executeTakeFirst()
}

export function listDocuments(db: Executor, tenant: Tenant, kbId: string, f: { status?: DocumentStatus }, page: Page): Promise<DocumentViewRow[]> {
  let q = scoped(db, tenant).selectFrom('knowledge_documents').select(DOCUMENT_VIEW_COLUMNS).where('knowledge_base_id', '=', kbId)
  if (f.status) q = q.where('status', '=', f.status)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** The crawler's view of a base: its crawled pages and what identifies their content. */
export function crawledPages(db: Executor, tenant: Tenant, kbId: string) {
  return scoped(db, tenant)
    .selectFrom('knowledge_documents')
    .select(['id', 'source_url', 'etag', 'last_modified', 'checksum'])
    .where('knowledge_base_id', '=', kbId)
    .where('origin', '=', 'crawl')
    .orderBy('id')
    .execute()
}

/** Ids of a base's documents in id order after `after` (re-processing and deletion walk these). */
export async function documentIdsOfBase(db: Executor, tenant: Tenant, kbId: string, after: string | null, limit: number): Promise<{ id: string; status: DocumentStatus }[]> {
  let q = scoped(db, tenant).selectFrom('knowledge_documents').select(['id', 'status']).where('knowledge_base_id', '=', kbId)
  if (after) q = q.where('id', '>', after)
  return q.orderBy('id').limit(limit).execute()
}

export async function updateDocument(db: Executor, tenant: Tenant, id: string, patch: Partial<KnowledgeDocumentsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('knowledge_documents').set(patch).where('id', '=', id).execute()
}

/** Documents, their pending sources and their chunks (the index rows are removed by the index repository). */
export async function deleteDocumentRows(db: Executor, tenant: Tenant, ids: string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH)
    await scoped(db, tenant).deleteFrom('knowledge_chunks').where('document_id', 'in', part).execute()
    await scoped(db, tenant).deleteFrom('knowledge_document_sources').where('document_id', 'in', part).execute()
    await scoped(db, tenant).deleteFrom('knowledge_documents').where('id', 'in', part).execute()
  }
}

// ---- raw bytes waiting for processing ----

/** Stores (or replaces) the bytes a document will be processed from. */
export async function putSource(db: Executor, row: KnowledgeDocumentSourcesTable): Promise<void> {
  await db
    .insertInto('knowledge_document_sources')
    .values(row)
    .onConflict((oc) => oc.column('document_id').doUpdateSet({ body: row.body }))
    .execute()
}

export async function findSource(db: Executor, tenant: Tenant, documentId: string): Promise<Buffer | undefined> {
  const row = await scoped(db, tenant).selectFrom('knowledge_document_sources').select('body').where('document_id', '=', documentId).executeTakeFirst()
  return row ? Buffer.from(row.body) : undefined
}

export async function deleteSource(db: Executor, tenant: Tenant, documentId: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('knowledge_document_sources').where('document_id', '=', documentId).execute()
}

// ---- chunks ----

/** Replaces a document's chunks; returns how many it had before (for the base's counter). */
export async function replaceChunks(db: Executor, tenant: Tenant, documentId: string, rows: KnowledgeChunksTable[]): Promise<number> {
  const removed = await scoped(db, tenant).deleteFrom('knowledge_chunks').where('document_id', '=', documentId).executeTakeFirst()
  await insertChunks(db, rows)
  return Number(removed.numDeletedRows)
}

/** Adds chunks (a large document is written slice by slice: jobs/process-document.job.ts). */
export async function insertChunks(db: Executor, rows: KnowledgeChunksTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH)
    await db
      .insertInto('knowledge_chunks')
      .values(rows.slice(i, i + BATCH))
      .execute()
}

export function listChunks(db: Executor, tenant: Tenant, documentId: string): Promise<KnowledgeChunksTable[]> {
  return scoped(db, tenant).selectFrom('knowledge_chunks').selectAll().where('document_id', '=', documentId).orderBy('position').execute()
}

// ---- usage and health ----

/** Health: documents waiting (queued or processing) across tenants, and since when the oldest waits. */
export async function backlog(db: Executor): Promise<{ waiting: number; oldest: string | null }> {
  const row = await db
    .selectFrom('knowledge_documents')
    .select([sql<number>`count(*)`.as('n'), sql<string | null>`min(updated_at)`.as('oldest')])
    .where('status', 'in', ['queued', 'processing'])
    .executeTakeFirst()
  return { waiting: Number(row?.n ?? 0), oldest: row?.oldest ?? null }
}
