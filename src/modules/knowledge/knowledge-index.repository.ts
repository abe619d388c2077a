import { sql, SqliteAdapter, type RawBuilder } from 'kysely'
import { vectorToBytes } from '../../kernel/ai/embeddings.js'
import type { Executor, Tx } from '../../kernel/db/database.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import '../../kernel/db/kernel.tables.js'
import './knowledge.search.tables.js'
import './knowledge.tables.js'
import { BM25F, type FilterPlan } from './knowledge-ranking.js'
import { analyseChunk, type ChunkTerms } from './knowledge-index.analysis.js'
import { proseFactor } from './knowledge-boilerplate.js'
import { applyStats, compilable, dropStats, listParam, StatsDelta } from './knowledge-stats.repository.js'
import { analyserFor } from './knowledge.text.js'

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
  rows: { chunkId: string; head: string[]; body: string[]; terms: string; head_len: number; body_len: number; prose: number; embedding: Buffer | null }[]
}

/**
 * The index rows of a document's chunks, computed outside any transaction: analysis, and embeddings when
 * a provider is configured (a network call; its AppError ai_provider_* is worth a retry of the job).
 */
export async function prepareIndex(k: Kernel, base: { language: string }, chunks: { id: string; text: string; headingPath: string[]; title: string; analysed?: ChunkTerms }[]): Promise<PreparedIndex> {
  const a = analyserFor(base.language)
  const rows = chunks.map((c) => {
    // Analysed already where the document was parsed (the ingest worker), off the event loop.
    const { head, body, terms } = c.analysed ?? analyseChunk(a, c.title, c.headingPath, c.text)
    // Navigation and index pages are told from prose here, once, so a search only multiplies by it.
    return { chunkId: c.id, head, body, terms, head_len: head.length, body_len: body.length, prose: proseFactor(c.text), embedding: null as Buffer | null }
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

/**
 * Adds index rows for more chunks of a document whose earlier rows stay (a large document is written slice
 * by slice, each in a short transaction), and adds them to the base's statistics.
 */
export async function appendIndex(tx: Tx, tenant: Tenant, kbId: string, documentId: string, prepared: PreparedIndex): Promise<void> {
  if (prepared.rows.length === 0) return
  const delta = new StatsDelta()
  for (const r of prepared.rows) delta.add(r, 1)
  await insertRows(tx, tenant, kbId, documentId, prepared)
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
          prose: r.prose,
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
      prose: r.prose,
      emb: r.embedding?.toString('base64') ?? null,
      tsv: tsvectorLiteral(kbId, r.head, r.body),
    })),
  )
  await sql`insert into knowledge_index (chunk_id, workspace_id, mode, knowledge_base_id, document_id, terms, head_len, body_len, prose, embedding, embedding_model, tsv)
    select r.chunk_id, ${tenant.workspaceId}, ${tenant.mode}, ${kbId}, ${documentId}, r.terms, r.head_len, r.body_len, r.prose, decode(r.emb, 'base64'), case when r.emb is null then null else ${prepared.model}::text end, r.tsv::tsvector
    from json_to_recordset(${json}::json) as r(chunk_id text, terms text, head_len int, body_len int, prose real, emb text, tsv text)`.execute(tx)
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
    const kb = await scoped(tx, tenant)
      .selectFrom('knowledge_index')
      .innerJoin('knowledge_bases', 'knowledge_bases.id', 'knowledge_index.knowledge_base_id')
      .select(['knowledge_index.knowledge_base_id', 'knowledge_bases.deleting'])
      .where('knowledge_index.document_id', '=', by.documentId)
      .executeTakeFirst()
    const delta = await removeRows(tx, tenant, by.documentId)
    // A base being deleted loses its statistics whole at the end (dropStats): its deletion job, emptying it
    // document by document, takes no lock on them (nor on the base, which a processing job may hold).
    if (kb && Number(kb.deleting) === 0) await applyStats(tx, tenant, kb.knowledge_base_id, delta)
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
  /** knowledge-boilerplate.ts: 1 for prose, down to 0.4 for a page of links. */
  prose: number
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

/** What one candidates statement needs: the plan's match expressions and the lists as single parameters. */
interface CandidateArgs {
  workspaceId: string
  mode: string
  /** The searched bases (listParam). */
  kbs: string
  /** The rare terms OR-ed (FTS5 MATCH / tsquery), ranked by the engine; absent: none. */
  rare?: string
  /** The common terms AND-ed, not ranked; absent: none. */
  common?: string
  limit: number
  cap: number
  vectors: boolean
}

/**
 * The chunks of the given bases a query plan selects (knowledge-ranking.ts: the rare terms of the question
 * ranked by the engine, the common ones together, so the postings the engine scores stay within a budget
 * whatever the base size), in one statement: both selections and the candidates' stored frequencies in
 * one round trip. The bases must already be known to belong to the tenant; the tenant columns are checked
 * again on every row kept. Metadata filters (document metadata key = value) apply before the limits.
 */
export async function searchCandidates(db: Executor, tenant: Tenant, q: { kbIds: string[]; plans: FilterPlan[]; filters: MetadataFilter; limit: number; withVectors: boolean }): Promise<Candidate[]> {
  if (q.kbIds.length === 0 || q.plans.length === 0) return []
  const sqlite = onSqlite(db)
  const args: CandidateArgs = { workspaceId: tenant.workspaceId, mode: tenant.mode, kbs: listParam(db, q.kbIds), limit: q.limit, cap: 0, vectors: q.withVectors }
  for (const plan of q.plans) {
    if ('any' in plan) args.rare = matchOf(plan.any, q.kbIds, 'or', sqlite)
    else {
      args.common = matchOf(plan.newest, q.kbIds, 'and', sqlite)
      args.cap = plan.cap
    }
  }
  const filters = Object.entries(q.filters).map(([key, v]) =>
    sqlite ? sql`json_extract(d.metadata, ${`$."${key}"`}) = ${typeof v === 'boolean' ? (v ? 1 : 0) : v}` : sql`(d.metadata::jsonb ->> ${key}) = ${String(v)}`,
  )
  // Without metadata filters the statement's text depends only on which selections the plan has: prepared.
  const rows = filters.length === 0 ? await candidates.all(db, args) : (await candidatesSql(db, args, filters).execute(db)).rows
  return rows.map((r) => ({ ...r, rid: Number(r.rid), head_len: Number(r.head_len), body_len: Number(r.body_len), prose: Number(r.prose) }))
}

/** Terms as an FTS5 MATCH or a tsquery over the bases' tokens (letters, digits and '_': quoting is all either needs). */
function matchOf(terms: string[], kbIds: string[], andOr: 'and' | 'or', sqlite: boolean): string {
  const [quote, or, and] = sqlite ? ['"', ' OR ', ' AND '] : ["'", ' | ', ' & ']
  const each = (term: string) => {
    const alts = kbIds.map((kb) => `${quote}${indexToken(kb, term)}${quote}`)
    return alts.length === 1 ? alts[0] : `(${alts.join(or)})`
  }
  const expr = terms.map(each).join(andOr === 'and' ? and : or)
  return sqlite ? `{head body} : (${expr})` : expr
}

function candidatesSql(db: Executor, a: CandidateArgs, filters: RawBuilder<unknown>[]): RawBuilder<Candidate> {
  const filtered = filters.length > 0
  const docJoin = filtered ? sql`join knowledge_documents d on d.id = i.document_id` : sql``
  const where = filtered ? sql`and ${sql.join(filters, sql` and `)}` : sql``
  const selections: RawBuilder<unknown>[] = []
  if (onSqlite(db)) {
    // The tokens are the bases' own, so a match needs no join; metadata filters need the document before
    // the limit: then the index row and the document are joined first, the tenant checked on them.
    // `rare`: bm25() over the rare terms' postings (within the budget); `common`: FTS5 walks the postings
    // backwards by rowid and stops at the cap, scoring nothing (the newest chunks).
    const from = (match: string) =>
      filtered
        ? sql`from knowledge_fts cross join knowledge_index i on i.rid = knowledge_fts.rowid ${docJoin}
            where knowledge_fts match ${match} and i.workspace_id = ${a.workspaceId} and i.mode = ${a.mode} ${where}` // tenant: on the index row the FTS row points at
        : sql`from knowledge_fts where knowledge_fts match ${match}`
    if (a.rare !== undefined) selections.push(sql`select rid from (select knowledge_fts.rowid as rid ${from(a.rare)} order by bm25(knowledge_fts, 0.0, ${HEAD_WEIGHT}, 1.0) limit ${a.limit})`)
    if (a.common !== undefined) selections.push(sql`select rid from (select knowledge_fts.rowid as rid ${from(a.common)} order by knowledge_fts.rowid desc limit ${a.cap})`)
  } else {
    // `rare`: ts_rank() over the rare terms' postings; `common`: the first chunks holding all the common
    // terms in the table's storage order (a GIN index lists matches, not their recency: ordering them by
    // rid would read every match's row), scoring nothing. The tokens are the bases' own, so the GIN index
    // alone selects; the tenant is checked on the rows kept.
    const from = (tsquery: string) => sql`from knowledge_index i ${docJoin} where i.tsv @@ ${tsquery}::tsquery and i.workspace_id = ${a.workspaceId} and i.mode = ${a.mode} ${where}` // tenant: on the rows matched
    if (a.rare !== undefined) selections.push(sql`(select i.rid ${from(a.rare)} order by ts_rank(${PG_WEIGHTS}::float4[], i.tsv, ${a.rare}::tsquery, 1) desc limit ${a.limit})`)
    if (a.common !== undefined) selections.push(sql`(select i.rid ${from(a.common)} limit ${a.cap})`)
  }
  const vectors = a.vectors ? sql`i.embedding, i.embedding_model` : sql`null as embedding, null as embedding_model`
  const kbs = onSqlite(db) ? sql`(select value from json_each(${a.kbs}))` : sql`(select unnest(${a.kbs}::text[]))`
  // The engine's order only chose the rows: BM25F ranks them (ties by chunk id, the same on both engines).
  return sql<Candidate>`select i.rid, i.chunk_id, i.document_id, i.knowledge_base_id, i.terms, i.head_len, i.body_len, i.prose, ${vectors}
    from knowledge_index i
    where i.rid in (${sql.join(selections, sql` union all `)})
      and i.workspace_id = ${a.workspaceId} and i.mode = ${a.mode} and i.knowledge_base_id in ${kbs}` // tenant: every row kept is the tenant's, in the asked bases
}

const candidates = prepared((db: Executor, a: CandidateArgs) => compilable(db, candidatesSql(db, a, [])))

const passages = prepared((db: Executor, a: { workspaceId: string; mode: string; rids: string }) => {
  const rids = onSqlite(db) ? sql`(select value from json_each(${a.rids}))` : sql`(select unnest(${a.rids}::bigint[]))`
  return compilable(
    db,
    sql<Passage>`select i.rid, c.text, c.start_offset, c.end_offset, c.heading_path, c.page, c.position, doc.title, doc.source_url
    from knowledge_index i join knowledge_chunks c on c.id = i.chunk_id join knowledge_documents doc on doc.id = i.document_id
    where i.rid in ${rids} and i.workspace_id = ${a.workspaceId} and i.mode = ${a.mode}`,
  ) // tenant: named here (the ids as one parameter)
})

/** Text, offsets and document of the chunks that made the results (tenant-checked again). */
export async function passagesOf(db: Executor, tenant: Tenant, rids: number[]): Promise<Map<number, Passage>> {
  if (rids.length === 0) return new Map()
  const rows = await passages.all(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, rids: listParam(db, rids) })
  return new Map(rows.map((r) => [Number(r.rid), { ...r, rid: Number(r.rid) }]))
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
