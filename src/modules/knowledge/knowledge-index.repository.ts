import { sql, SqliteAdapter, type RawBuilder } from 'kysely'
import { vectorToBytes } from '../../kernel/ai/embeddings.js'
import type { Executor, Tx } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import '../../kernel/db/kernel.tables.js'
import './knowledge.search.tables.js'
import './knowledge.tables.js'
import { BM25F, termFrequencies, type FilterPlan } from './knowledge-ranking.js'
import { applyStats, dropStats, StatsDelta, valuesIn } from './knowledge-stats.repository.js'
import { analyserFor, termsOf } from './knowledge.text.js'

// The search index: the only SQL of full-text search and embeddings. Both engines index the same
// JS-analysed terms (knowledge.text.ts) — FTS5 on SQLite, a GIN-indexed tsvector on PostgreSQL — and
// select and pre-rank the candidates of a search (bm25() / ts_rank()); the final BM25F is computed in JS
// from the stored term frequencies and the per-base statistics (knowledge-ranking.ts), the same on both.
// The full-text parts are raw SQL (an FTS5 virtual table, tsvector literals) that scoped() cannot build,
// so these queries name the tenant columns themselves, each marked `tenant:`.

const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter
/** Title/headings weight relative to the chunk text in the engines' pre-rank, as in BM25F. */
const HEAD_WEIGHT = BM25F.headWeight
/** ts_rank's weights {D, C, B, A}: the text is written as D, title and headings as A. */
const PG_WEIGHTS = `{${1 / HEAD_WEIGHT},${1 / HEAD_WEIGHT},${1 / HEAD_WEIGHT},1}`

export interface PreparedIndex {
  model: string | null
  rows: { chunkId: string; head: string[]; body: string[]; terms: string; head_len: number; body_len: number; embedding: Buffer | null }[]
}

/**
 * The index rows of a document's chunks, computed outside any transaction: analysis, and embeddings when
 * a provider is configured (a network call; its AppError ai_provider_* is worth a retry of the job).
 */
export async function prepareIndex(
  k: Kernel,
  base: { language: string },
  chunks: { id: string; text: string; headingPath: string[]; title: string }[],
): Promise<PreparedIndex> {
  const a = analyserFor(base.language)
  const rows = chunks.map((c) => {
    const head = termsOf([c.title, ...c.headingPath].join('\n'), a)
    const body = termsOf(c.text, a)
    return { chunkId: c.id, head, body, terms: termFrequencies(head, body), head_len: head.length, body_len: body.length, embedding: null as Buffer | null }
  })
  const embeddings = k.embeddings
  if (embeddings && chunks.length > 0) {
    const vectors = await embeddings.embed(chunks.map((c) => embeddingInput(c.title, c.headingPath, c.text)))
    vectors.forEach((v, i) => (rows[i].embedding = vectorToBytes(v)))
  }
  return { model: embeddings?.model ?? null, rows }
}

/** What a chunk's vector is computed from: its context (title, headings) and its text. */
export const embeddingInput = (title: string, headingPath: string[], text: string): string => [title, ...headingPath, text].filter(Boolean).join('\n')

/** Replaces the document's index rows and updates the base's statistics by the difference. */
export async function writeIndex(tx: Tx, tenant: Tenant, kbId: string, documentId: string, prepared: PreparedIndex): Promise<void> {
  const delta = await removeRows(tx, tenant, documentId)
  for (const r of prepared.rows) delta.add(r, 1)
  if (prepared.rows.length > 0) await insertRows(tx, tenant, kbId, documentId, prepared)
  await applyStats(tx, tenant, kbId, delta)
}

async function insertRows(tx: Tx, tenant: Tenant, kbId: string, documentId: string, prepared: PreparedIndex): Promise<void> {
  if (onSqlite(tx)) {
    for (const r of prepared.rows) {
      const { rid } = await tx
        .insertInto('knowledge_index')
        .values({
          chunk_id: r.chunkId,
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          knowledge_base_id: kbId,
          document_id: documentId,
          terms: r.terms,
          head_len: r.head_len,
          body_len: r.body_len,
          embedding: r.embedding,
          embedding_model: r.embedding ? prepared.model : null,
        })
        .returning('rid')
        .executeTakeFirstOrThrow()
      await insertFtsRow(tx, rid, kbId, r.head, r.body)
    }
    return
  }
  // PostgreSQL: one statement; the tsvector is given as a literal (lexemes, positions, weight A for the
  // title and headings) so no text-search parser or locale can change the terms.
  const json = JSON.stringify(
    prepared.rows.map((r) => ({
      chunk_id: r.chunkId,
      terms: r.terms,
      head_len: r.head_len,
      body_len: r.body_len,
      emb: r.embedding?.toString('base64') ?? null,
      tsv: tsvectorLiteral(kbId, r.head, r.body),
    })),
  )
  await sql`insert into knowledge_index (chunk_id, workspace_id, mode, knowledge_base_id, document_id, terms, head_len, body_len, embedding, embedding_model, tsv)
    select r.chunk_id, ${tenant.workspaceId}, ${tenant.mode}, ${kbId}, ${documentId}, r.terms, r.head_len, r.body_len, decode(r.emb, 'base64'), case when r.emb is null then null else ${prepared.model}::text end, r.tsv::tsvector
    from json_to_recordset(${json}::json) as r(chunk_id text, terms text, head_len int, body_len int, emb text, tsv text)`.execute(tx)
}

/**
 * The token a term is indexed under: prefixed by its base, so each base has its own posting lists in the
 * engine's index — a search reads only its bases' postings, and the postings budget of the query plan
 * (counted per base) is what the engine really ranks, however many other bases the database holds.
 */
export const indexToken = (kbId: string, term: string): string => `${kbId}_${term}`.toLowerCase()

/** SQLite: the chunk's FTS5 row (title/headings and text as base-prefixed tokens). */
export async function insertFtsRow(db: Executor, rid: number, kbId: string, head: string[], body: string[]): Promise<void> {
  const tokens = (terms: string[]) => terms.map((t) => indexToken(kbId, t)).join(' ')
  await sql`insert into knowledge_fts (rowid, kb, head, body) values (${rid}, ${kbId}, ${tokens(head)}, ${tokens(body)})`.execute(db)
}

/** PostgreSQL: `'token':pos[A] …`; terms are letters and digits only (knowledge.text.ts), so nothing needs quoting. */
export function tsvectorLiteral(kbId: string, head: string[], body: string[]): string {
  const parts: string[] = []
  head.forEach((t, i) => parts.push(`'${indexToken(kbId, t)}':${Math.min(i + 1, 16383)}A`))
  body.forEach((t, i) => parts.push(`'${indexToken(kbId, t)}':${Math.min(head.length + i + 1, 16383)}`))
  return parts.join(' ')
}

export async function removeIndex(tx: Tx, tenant: Tenant, by: { documentId: string } | { knowledgeBaseId: string }): Promise<void> {
  if ('documentId' in by) {
    const kb = await scoped(tx, tenant).selectFrom('knowledge_index').select('knowledge_index.knowledge_base_id').where('knowledge_index.document_id', '=', by.documentId).executeTakeFirst()
    const delta = await removeRows(tx, tenant, by.documentId)
    if (kb) await applyStats(tx, tenant, kb.knowledge_base_id, delta)
    return
  }
  if (onSqlite(tx)) {
    const rows = scoped(tx, tenant).selectFrom('knowledge_index').select('knowledge_index.rid').where('knowledge_index.knowledge_base_id', '=', by.knowledgeBaseId)
    await sql`delete from knowledge_fts where rowid in (${rows})`.execute(tx)
  }
  await scoped(tx, tenant).deleteFrom('knowledge_index').where('knowledge_index.knowledge_base_id', '=', by.knowledgeBaseId).execute()
  await dropStats(tx, tenant, by.knowledgeBaseId)
}

/** Deletes a document's index rows; returns what they counted in the statistics, negated. */
async function removeRows(tx: Tx, tenant: Tenant, documentId: string): Promise<StatsDelta> {
  const delta = new StatsDelta()
  const old = await scoped(tx, tenant)
    .selectFrom('knowledge_index')
    .select(['knowledge_index.rid', 'knowledge_index.terms', 'knowledge_index.head_len', 'knowledge_index.body_len'])
    .where('knowledge_index.document_id', '=', documentId)
    .execute()
  if (old.length === 0) return delta
  for (const r of old) delta.add(r, -1)
  if (onSqlite(tx)) {
    // The FTS5 rows first (the virtual table has no tenant columns): by the rowids just read, as one JSON
    // parameter so the statement's text never changes.
    await sql`delete from knowledge_fts where rowid in (select value from json_each(${JSON.stringify(old.map((r) => Number(r.rid)))}))`.execute(tx)
  }
  await scoped(tx, tenant).deleteFrom('knowledge_index').where('knowledge_index.document_id', '=', documentId).execute()
  return delta
}

export type MetadataFilter = Record<string, string | number | boolean>

/** A chunk the engine selected, with what BM25F and the hybrid re-ranking need (not its text). */
export interface Candidate {
  rid: number
  chunk_id: string
  document_id: string
  knowledge_base_id: string
  /** ` term:head:body …` (knowledge-ranking.ts). */
  terms: string
  head_len: number
  body_len: number
  embedding: Uint8Array | null
  embedding_model: string | null
}

/** What a citation and an answer need of a chunk: read for the results only. */
export interface Passage {
  rid: number
  text: string
  start_offset: number
  end_offset: number
  heading_path: string
  page: number | null
  position: number
  title: string
  source_url: string | null
}

/**
 * The chunks of the given bases a filter plan selects (knowledge-ranking.ts: the rare terms of the
 * question ranked by the engine, the common ones together, newest first, so the postings the engine
 * scores stay within a budget whatever the base size), merged. The bases must already be known to belong
 * to the tenant; the tenant columns are checked again here. Metadata filters (document metadata
 * key = value) apply before the limits.
 */
export async function searchCandidates(
  db: Executor,
  tenant: Tenant,
  q: { kbIds: string[]; plans: FilterPlan[]; filters: MetadataFilter; limit: number; withVectors: boolean },
): Promise<Candidate[]> {
  if (q.kbIds.length === 0 || q.plans.length === 0) return []
  const sqlite = onSqlite(db)
  const filters = Object.entries(q.filters).map(([key, v]) =>
    sqlite
      ? sql`json_extract(d.metadata, ${`$."${key}"`}) = ${typeof v === 'boolean' ? (v ? 1 : 0) : v}`
      : sql`(d.metadata::jsonb ->> ${key}) = ${String(v)}`,
  )
  const docJoin = filters.length > 0 ? sql`join knowledge_documents d on d.id = i.document_id` : sql``
  const where = filters.length > 0 ? sql`and ${sql.join(filters, sql` and `)}` : sql``
  const out: Candidate[] = []
  const seen = new Set<number>()
  for (const plan of q.plans) {
    for (const c of await selectedCandidates(db, tenant, q, plan, docJoin, where, filters.length > 0)) {
      if (seen.has(c.rid)) continue
      seen.add(c.rid)
      out.push(c)
    }
  }
  return out
}

/** The plan as an FTS5 MATCH and a tsquery over the bases' tokens (letters, digits and '_': quoting is all either needs). */
function matchOf(plan: FilterPlan, kbIds: string[]): { fts: string; tsquery: string } {
  const each = (term: string, quote: string, or: string) => {
    const alts = kbIds.map((kb) => `${quote}${indexToken(kb, term)}${quote}`)
    return alts.length === 1 ? alts[0] : `(${alts.join(or)})`
  }
  const expr = (terms: string[], andOr: 'and' | 'or') => ({
    fts: terms.map((t) => each(t, '"', ' OR ')).join(andOr === 'and' ? ' AND ' : ' OR '),
    tsquery: terms.map((t) => each(t, "'", ' | ')).join(andOr === 'and' ? ' & ' : ' | '),
  })
  return 'any' in plan ? expr(plan.any, 'or') : expr(plan.newest, 'and')
}

async function selectedCandidates(
  db: Executor,
  tenant: Tenant,
  q: { kbIds: string[]; limit: number; withVectors: boolean },
  plan: FilterPlan,
  docJoin: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
  filtered: boolean,
): Promise<Candidate[]> {
  const m = matchOf(plan, q.kbIds)
  const ranked = 'any' in plan
  const limit = ranked ? q.limit : plan.cap
  let top: RawBuilder<unknown>
  if (onSqlite(db)) {
    const match = `{head body} : (${m.fts})`
    // `newest`: FTS5 walks the postings backwards by rowid and stops at the cap; nothing is scored.
    const raw = ranked ? sql`-bm25(knowledge_fts, 0.0, ${HEAD_WEIGHT}, 1.0)` : sql`0.0`
    const order = ranked ? sql`raw desc` : sql`knowledge_fts.rowid desc`
    // The tokens are the bases' own, so the match needs no join; the tenant is checked on the rows kept
    // (below). Metadata filters need the document before the limit: then the join comes first.
    top = filtered
      ? sql`select i.rid, ${raw} as raw
          from knowledge_fts cross join knowledge_index i on i.rid = knowledge_fts.rowid ${docJoin}
          where knowledge_fts match ${match} and i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode} ${where}
          order by ${order} limit ${limit}` // tenant: checked on the index row the FTS row points at
      : sql`select knowledge_fts.rowid as rid, ${raw} as raw from knowledge_fts where knowledge_fts match ${match} order by ${order} limit ${limit}`
  } else {
    const kbs = `{${q.kbIds.join(',')}}`
    const raw = ranked ? sql`ts_rank(${PG_WEIGHTS}::float4[], i.tsv, ${m.tsquery}::tsquery, 1)` : sql`0::float4`
    const order = ranked ? sql`raw desc` : sql`i.rid desc`
    top = sql`select i.rid, ${raw} as raw
      from knowledge_index i ${docJoin}
      where i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode} and i.knowledge_base_id = any(${kbs}::text[])
        and i.tsv @@ ${m.tsquery}::tsquery ${where}
      order by ${order} limit ${limit}` // tenant: the index rows are filtered by workspace and mode
  }
  const vectors = q.withVectors ? sql`i.embedding, i.embedding_model` : sql`null as embedding, null as embedding_model`
  // The engine's order only chose the rows: BM25F ranks them (ties by chunk id, the same on both engines).
  const { rows } = await sql<Candidate>`select i.rid, i.chunk_id, i.document_id, i.knowledge_base_id, i.terms, i.head_len, i.body_len, ${vectors}
    from knowledge_index i
    where i.rid in (select t.rid from (${top}) t)
      and i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode} and i.knowledge_base_id in ${valuesIn(db, q.kbIds)}`.execute(db) // tenant: every row kept is the tenant's, in the asked bases
  return rows.map((r) => ({ ...r, rid: Number(r.rid), head_len: Number(r.head_len), body_len: Number(r.body_len) }))
}

/** Text, offsets and document of the chunks that made the results (tenant-checked again). */
export async function passagesOf(db: Executor, tenant: Tenant, rids: number[]): Promise<Map<number, Passage>> {
  if (rids.length === 0) return new Map()
  const { rows } = await sql<Passage>`select i.rid, c.text, c.start_offset, c.end_offset, c.heading_path, c.page, c.position, doc.title, doc.source_url
    from knowledge_index i join knowledge_chunks c on c.id = i.chunk_id join knowledge_documents doc on doc.id = i.document_id
    where i.rid in ${valuesIn(db, rids, 'bigint')} and i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode}`.execute(db) // tenant: named here (the ids as one parameter)
  return new Map(rows.map((r) => [Number(r.rid), { ...r, rid: Number(r.rid) }]))
}

/** The tenant's searchable bases (not being deleted): all of them, or those of `ids` that exist. */
export async function searchableBases(db: Executor, tenant: Tenant, ids?: string[]): Promise<{ id: string; language: string }[]> {
  const only = ids ? sql`and id in ${valuesIn(db, ids)}` : sql``
  const { rows } = await sql<{ id: string; language: string }>`select id, language from knowledge_bases
    where workspace_id = ${tenant.workspaceId} and mode = ${tenant.mode} and deleting = 0 ${only}
    order by id limit 200`.execute(db) // tenant: named here (the ids as one parameter)
  return rows
}

/** Successful searchKnowledge calls per UTC day, from the kernel's request counts. */
export async function searchesPerDay(db: Executor, tenant: Tenant, from: string, to: string): Promise<{ day: string; count: number }[]> {
  const rows = await scoped(db, tenant)
    .selectFrom('request_counts')
    .select(['request_counts.day', 'request_counts.count', 'request_counts.errors'])
    .where('request_counts.module', '=', 'knowledge')
    .where('request_counts.operation_id', '=', 'searchKnowledge')
    .where('request_counts.day', '>=', from)
    .where('request_counts.day', '<=', to)
    .execute()
  return rows.map((r) => ({ day: r.day, count: Number(r.count) - Number(r.errors) }))
}
