import { sql } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './knowledge.search.tables.js'
import type { KnowledgeGapsTable } from './knowledge.search.tables.js'

// The only SQL of knowledge gaps.

/**
 * Open gaps sharing terms with a question, most shared terms first: the term table is the lookup
 * (indexed by tenant and term), so grouping never loads the gaps into memory.
 */
export async function similarOpenGaps(db: Executor, tenant: Tenant, terms: string[], limit = 10): Promise<{ id: string; term_count: number; shared: number }[]> {
  if (terms.length === 0) return []
  const rows = await scoped(db, tenant)
    .selectFrom('knowledge_gap_terms')
    .innerJoin('knowledge_gaps', 'knowledge_gaps.id', 'knowledge_gap_terms.gap_id')
    .select((eb) => ['knowledge_gaps.id', 'knowledge_gaps.term_count', eb.fn.countAll<number>().as('shared')])
    .where('knowledge_gap_terms.term', 'in', terms)
    .where('knowledge_gaps.status', '=', 'open')
    .groupBy(['knowledge_gaps.id', 'knowledge_gaps.term_count'])
    .orderBy('shared', 'desc')
    .orderBy('knowledge_gaps.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({ id: r.id, term_count: Number(r.term_count), shared: Number(r.shared) }))
}

export const findGap = (db: Executor, tenant: Tenant, id: string): Promise<KnowledgeGapsTable | undefined> =>
  scoped(db, tenant).selectFrom('knowledge_gaps').selectAll().where('knowledge_gaps.id', '=', id).executeTakeFirst()

export async function insertGap(db: Executor, row: KnowledgeGapsTable, terms: string[]): Promise<void> {
  await db.insertInto('knowledge_gaps').values(row).execute()
  if (terms.length > 0) {
    await db
      .insertInto('knowledge_gap_terms')
      .values(terms.map((term) => ({ gap_id: row.id, workspace_id: row.workspace_id, mode: row.mode, term })))
      .execute()
  }
}

/** Another question of the group: counted, its score and base ids folded in. */
export async function updateGap(
  db: Executor,
  tenant: Tenant,
  id: string,
  patch: Pick<KnowledgeGapsTable, 'examples' | 'last_seen_at' | 'best_score' | 'knowledge_base_ids' | 'updated_at'>,
): Promise<void> {
  await scoped(db, tenant)
    .updateTable('knowledge_gaps')
    .set({ ...patch, count: sql`count + 1` })
    .where('knowledge_gaps.id', '=', id)
    .execute()
}

/** Open → resolved, once (guarded by status); its terms leave the grouping lookup. Returns whether it changed. */
export async function resolveGap(db: Executor, tenant: Tenant, id: string, at: string, documentId: string, score: number): Promise<boolean> {
  const res = await scoped(db, tenant)
    .updateTable('knowledge_gaps')
    .set({ status: 'resolved', resolved_at: at, resolved_by_document_id: documentId, best_score: sql`case when best_score > ${score} then best_score else ${score} end`, updated_at: at })
    .where('knowledge_gaps.id', '=', id)
    .where('knowledge_gaps.status', '=', 'open')
    .executeTakeFirst()
  if (Number(res.numUpdatedRows) === 0) return false
  await scoped(db, tenant).deleteFrom('knowledge_gap_terms').where('knowledge_gap_terms.gap_id', '=', id).execute()
  return true
}

/** Open gaps whose questions were asked of a base, most recent first (what a new document may answer). */
export const openGapsOfBase = (db: Executor, tenant: Tenant, kbId: string, limit: number): Promise<KnowledgeGapsTable[]> =>
  scoped(db, tenant)
    .selectFrom('knowledge_gaps')
    .selectAll()
    .where('knowledge_gaps.status', '=', 'open')
    .where('knowledge_gaps.knowledge_base_ids', 'like', `%"${kbId}"%`)
    .orderBy('knowledge_gaps.last_seen_at', 'desc')
    .limit(limit)
    .execute()

/** Gaps (any status) asked of a base, by id, a page at a time: what its deletion detaches. */
export const gapsOfBase = (db: Executor, tenant: Tenant, kbId: string, afterId: string | null, limit: number): Promise<Pick<KnowledgeGapsTable, 'id' | 'knowledge_base_ids'>[]> => {
  let q = scoped(db, tenant).selectFrom('knowledge_gaps').select(['knowledge_gaps.id', 'knowledge_gaps.knowledge_base_ids']).where('knowledge_gaps.knowledge_base_ids', 'like', `%"${kbId}"%`)
  if (afterId) q = q.where('knowledge_gaps.id', '>', afterId)
  return q.orderBy('knowledge_gaps.id').limit(limit).execute()
}

export async function setGapBases(db: Executor, tenant: Tenant, id: string, knowledgeBaseIds: string, at: string): Promise<void> {
  await scoped(db, tenant).updateTable('knowledge_gaps').set({ knowledge_base_ids: knowledgeBaseIds, updated_at: at }).where('knowledge_gaps.id', '=', id).execute()
}

/** Gaps with their grouping terms. */
export async function deleteGaps(db: Executor, tenant: Tenant, ids: string[]): Promise<void> {
  if (ids.length === 0) return
  await scoped(db, tenant).deleteFrom('knowledge_gap_terms').where('knowledge_gap_terms.gap_id', 'in', ids).execute()
  await scoped(db, tenant).deleteFrom('knowledge_gaps').where('knowledge_gaps.id', 'in', ids).execute()
}

/** `%needle%` for LIKE, lower-cased, its wildcards taken literally (backslash-escaped). */
const likePattern = (needle: string) => `%${needle.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`

/**
 * Gaps whose question or example questions contain one of `needles`, case-insensitively (a data subject's,
 * knowledge.privacy.ts): candidates, which the caller checks. A scan of the tenant's gaps.
 */
export function gapsContaining(db: Executor, tenant: Tenant, needles: string[]): Promise<KnowledgeGapsTable[]> {
  if (needles.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('knowledge_gaps')
    .selectAll()
    .where((eb) =>
      eb.or(
        needles.flatMap((n) => [
          sql<boolean>`lower(${eb.ref('knowledge_gaps.question')}) like ${likePattern(n)} escape '\\'`,
          sql<boolean>`lower(${eb.ref('knowledge_gaps.examples')}) like ${likePattern(n)} escape '\\'`,
        ]),
      ),
    )
    .orderBy('knowledge_gaps.id')
    .execute()
}

export type GapOrder = 'recent' | 'count'

/**
 * A page of gaps in list order, keyset-paginated on (last_seen_at, id) or (count, id), both descending.
 * `after` is the list key of the previous page's last row (see gapKey). The base filter matches the JSON
 * array of ids as text: ids are `kb_` + base32, so `"kb_…"` cannot match anything but that element.
 */
export async function listGaps(
  db: Executor,
  tenant: Tenant,
  q: { status?: 'open' | 'resolved'; knowledgeBaseId?: string; order: GapOrder; after: string | null; take: number },
): Promise<KnowledgeGapsTable[]> {
  let query = scoped(db, tenant).selectFrom('knowledge_gaps').selectAll()
  if (q.status) query = query.where('knowledge_gaps.status', '=', q.status)
  if (q.knowledgeBaseId) query = query.where('knowledge_gaps.knowledge_base_ids', 'like', `%"${q.knowledgeBaseId}"%`)
  if (q.after) {
    const [sort, id] = splitGapKey(q.after)
    if (q.order === 'count') {
      const n = Number(sort)
      query = query.where((eb) => eb.or([eb('knowledge_gaps.count', '<', n), eb.and([eb('knowledge_gaps.count', '=', n), eb('knowledge_gaps.id', '<', id)])]))
    } else {
      query = query.where((eb) => eb.or([eb('knowledge_gaps.last_seen_at', '<', sort), eb.and([eb('knowledge_gaps.last_seen_at', '=', sort), eb('knowledge_gaps.id', '<', id)])]))
    }
  }
  const sortColumn = q.order === 'count' ? 'knowledge_gaps.count' : 'knowledge_gaps.last_seen_at'
  return query.orderBy(sortColumn, 'desc').orderBy('knowledge_gaps.id', 'desc').limit(q.take).execute()
}

/** The list key of a gap: its sort value and its id (`7~gap_…` or `2026-11-25T10:00:00.000Z~gap_…`). */
export const gapKey = (row: KnowledgeGapsTable, order: GapOrder): string => `${order === 'count' ? row.count : row.last_seen_at}~${row.id}`
const splitGapKey = (key: string): [string, string] => {
  const i = key.indexOf('~')
  return [key.slice(0, i), key.slice(i + 1)]
}
/** Shapes a cursor key must have per order: a forged key never reaches the database. */
export const GAP_KEY_SHAPE: Record<GapOrder, RegExp> = {
  count: /^\d{1,12}~gap_[0-9A-Za-z]{1,40}$/,
  recent: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z~gap_[0-9A-Za-z]{1,40}$/,
}
