import { sql, SqliteAdapter, type RawBuilder } from 'kysely'
import { vectorToBytes } from '../../kernel/ai/embeddings.js'
import type { Executor, Tx } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import '../../kernel/db/kernel.tables.js'
import './knowledge.search.tables.js'
import './knowledge.tables.js'
import { analyserFor, termsOf } from './knowledge.text.js'

// The search index: the only SQL of full-text search and embeddings. Both engines index the same
// JS-analysed terms (knowledge.text.ts); the ranking is the engine's own — FTS5 bm25() on SQLite,
// ts_rank_cd() over a GIN-indexed tsvector on PostgreSQL — with the title and headings weighted 2.5× the
// text on both. The full-text parts are raw SQL (an FTS5 virtual table, tsvector literals) that scoped()
// cannot build, so these queries name the tenant columns themselves, each marked `tenant:`.

const onSqlite = (db: Executor) => db.getExecutor().adapter instanceof SqliteAdapter
/** Title/headings weight relative to the chunk text, on both engines. */
const HEAD_WEIGHT = 2.5
/** ts_rank_cd's weights {D, C, B, A}: the text is written as D, title and headings as A. */
const PG_WEIGHTS = `{${1 / HEAD_WEIGHT},${1 / HEAD_WEIGHT},${1 / HEAD_WEIGHT},1}`

export interface PreparedIndex {
  model: string | null
  rows: { chunkId: string; head: string[]; body: string[]; terms: string; embedding: Buffer | null }[]
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
    return { chunkId: c.id, head, body, terms: [...new Set([...head, ...body])].sort().join(' '), embedding: null as Buffer | null }
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

/** Replaces the document's index rows (a retry or a re-processing writes the same document again). */
export async function writeIndex(tx: Tx, tenant: Tenant, kbId: string, documentId: string, prepared: PreparedIndex): Promise<void> {
  await removeIndex(tx, tenant, { documentId })
  if (prepared.rows.length === 0) return
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
          embedding: r.embedding,
          embedding_model: r.embedding ? prepared.model : null,
        })
        .returning('rid')
        .executeTakeFirstOrThrow()
      await sql`insert into knowledge_fts (rowid, kb, head, body) values (${rid}, ${kbId}, ${r.head.join(' ')}, ${r.body.join(' ')})`.execute(tx)
    }
    return
  }
  // PostgreSQL: one statement; the tsvector is given as a literal (lexemes, positions, weight A for the
  // title and headings) so no text-search parser or locale can change the terms.
  const json = JSON.stringify(
    prepared.rows.map((r) => ({ chunk_id: r.chunkId, terms: r.terms, emb: r.embedding?.toString('base64') ?? null, tsv: tsvectorLiteral(r.head, r.body) })),
  )
  await sql`insert into knowledge_index (chunk_id, workspace_id, mode, knowledge_base_id, document_id, terms, embedding, embedding_model, tsv)
    select r.chunk_id, ${tenant.workspaceId}, ${tenant.mode}, ${kbId}, ${documentId}, r.terms, decode(r.emb, 'base64'), case when r.emb is null then null else ${prepared.model}::text end, r.tsv::tsvector
    from json_to_recordset(${json}::json) as r(chunk_id text, terms text, emb text, tsv text)`.execute(tx)
}

/** `'term':pos[A] …`; terms are letters and digits only (knowledge.text.ts), so nothing needs quoting. */
function tsvectorLiteral(head: string[], body: string[]): string {
  const parts: string[] = []
  head.forEach((t, i) => parts.push(`'${t}':${Math.min(i + 1, 16383)}A`))
  body.forEach((t, i) => parts.push(`'${t}':${Math.min(head.length + i + 1, 16383)}`))
  return parts.join(' ')
}

export async function removeIndex(tx: Tx, tenant: Tenant, by: { documentId: string } | { knowledgeBaseId: string }): Promise<void> {
  const column = 'documentId' in by ? 'document_id' : 'knowledge_base_id'
  const value = 'documentId' in by ? by.documentId : by.knowledgeBaseId
  if (onSqlite(tx)) {
    // The FTS5 rows first, found through the tenant's index rows (the virtual table has no tenant columns).
    const rows = scoped(tx, tenant).selectFrom('knowledge_index').select('knowledge_index.rid').where(column, '=', value)
    await sql`delete from knowledge_fts where rowid in (${rows})`.execute(tx)
  }
  await scoped(tx, tenant).deleteFrom('knowledge_index').where(column, '=', value).execute()
}

export type MetadataFilter = Record<string, string | number | boolean>

export interface Candidate {
  chunk_id: string
  document_id: string
  knowledge_base_id: string
  terms: string
  /** The engine's relevance, higher is better (bm25 negated on SQLite, ts_rank_cd on PostgreSQL). */
  raw: number
  embedding: Uint8Array | null
  embedding_model: string | null
  text: string
  start_offset: number
  end_offset: number
  heading_path: string
  page: number | null
  title: string
  source_url: string | null
  position: number
}

/**
 * The best `limit` chunks of the given bases for any of `terms` (OR), by the engine's ranking, with
 * what a citation needs. The bases must already be known to belong to the tenant; the tenant columns
 * are checked again here. Metadata filters (document metadata key = value) apply before the limit.
 */
export async function searchCandidates(
  db: Executor,
  tenant: Tenant,
  q: { kbIds: string[]; terms: string[]; filters: MetadataFilter; limit: number; withVectors: boolean },
): Promise<Candidate[]> {
  if (q.kbIds.length === 0 || q.terms.length === 0) return []
  const sqlite = onSqlite(db)
  const filters = Object.entries(q.filters).map(([key, v]) =>
    sqlite
      ? sql`json_extract(d.metadata, ${`$."${key}"`}) = ${typeof v === 'boolean' ? (v ? 1 : 0) : v}`
      : sql`(d.metadata::jsonb ->> ${key}) = ${String(v)}`,
  )
  const docJoin = filters.length > 0 ? sql`join knowledge_documents d on d.id = i.document_id` : sql``
  const where = filters.length > 0 ? sql`and ${sql.join(filters, sql` and `)}` : sql``
  // Ranking every chunk that holds any one term of the question is what costs (bm25()/ts_rank_cd() per
  // matching row: 15,000 rows of a 50,000-chunk base for a question with one common word). Chunks holding
  // all terms of the question but one are asked first; only when fewer than MIN_FIRST_PASS come back
  // is every chunk with any term ranked. The score (knowledge-search.service.ts) favours coverage, so the
  // first pass holds the results whenever it is full.
  const n = Math.min(q.terms.length, MAX_COMBINED_TERMS)
  const m = n >= 3 ? n - 1 : 1
  if (m > 1) {
    const first = await rankedCandidates(db, tenant, q, combinations(q.terms.slice(0, n), m), binomial(n - 1, m - 1), docJoin, where)
    if (first.length >= MIN_FIRST_PASS) return first
  }
  return rankedCandidates(db, tenant, q, q.terms.map((t) => [t]), 1, docJoin, where)
}

/** Questions are matched on at most this many terms in the first pass (C(8, 4) = 70 term groups). */
const MAX_COMBINED_TERMS = 8
const MIN_FIRST_PASS = 10

function combinations(terms: string[], size: number): string[][] {
  if (size === 0) return [[]]
  const out: string[][] = []
  for (let i = 0; i <= terms.length - size; i++) for (const rest of combinations(terms.slice(i + 1), size - 1)) out.push([terms[i], ...rest])
  return out
}
const binomial = (n: number, k: number): number => (k === 0 ? 1 : (binomial(n - 1, k - 1) * n) / k)

/**
 * Chunks matching any of `groups` (each group: all of its terms), best first. On SQLite bm25() scores the
 * MATCH expression, in which each term appears `repeats` times: dividing by it gives the plain OR score.
 * On PostgreSQL the groups only filter and ts_rank_cd() ranks against the plain OR of the terms.
 */
async function rankedCandidates(
  db: Executor,
  tenant: Tenant,
  q: { kbIds: string[]; terms: string[]; limit: number; withVectors: boolean },
  groups: string[][],
  repeats: number,
  docJoin: RawBuilder<unknown>,
  where: RawBuilder<unknown>,
): Promise<Candidate[]> {
  let top: RawBuilder<unknown>
  if (onSqlite(db)) {
    const any = groups.map((g) => (g.length === 1 ? `"${g[0]}"` : `(${g.map((t) => `"${t}"`).join(' AND ')})`)).join(' OR ')
    const match = `kb : (${q.kbIds.map((id) => `"${id}"`).join(' OR ')}) AND {head body} : (${any})`
    top = sql`select i.rid, -bm25(knowledge_fts, 0.0, ${HEAD_WEIGHT}, 1.0) / ${repeats} as raw
      from knowledge_fts join knowledge_index i on i.rid = knowledge_fts.rowid ${docJoin}
      where knowledge_fts match ${match} and i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode} ${where}
      order by raw desc limit ${q.limit}` // tenant: checked on the index row the FTS row points at
  } else {
    const filter = groups.map((g) => `(${g.map((t) => `'${t}'`).join(' & ')})`).join(' | ')
    const rank = q.terms.map((t) => `'${t}'`).join(' | ')
    const kbs = `{${q.kbIds.join(',')}}`
    top = sql`select i.rid, ts_rank_cd(${PG_WEIGHTS}::float4[], i.tsv, qq.r, 1) as raw
      from knowledge_index i cross join (select ${filter}::tsquery as f, ${rank}::tsquery as r) qq ${docJoin}
      where i.workspace_id = ${tenant.workspaceId} and i.mode = ${tenant.mode} and i.knowledge_base_id = any(${kbs}::text[]) and i.tsv @@ qq.f ${where}
      order by raw desc limit ${q.limit}` // tenant: the index rows are filtered by workspace and mode
  }
  const vectors = q.withVectors ? sql`i.embedding, i.embedding_model` : sql`null as embedding, null as embedding_model`
  const { rows } = await sql<Candidate>`select i.chunk_id, i.document_id, i.knowledge_base_id, i.terms, t.raw, ${vectors},
      c.text, c.start_offset, c.end_offset, c.heading_path, c.page, c.position, doc.title, doc.source_url
    from (${top}) t
    join knowledge_index i on i.rid = t.rid
    join knowledge_chunks c on c.id = i.chunk_id
    join knowledge_documents doc on doc.id = i.document_id
    order by t.raw desc`.execute(db)
  return rows.map((r) => ({ ...r, raw: Number(r.raw) }))
}

/** The tenant's searchable bases (not being deleted): all of them, or those of `ids` that exist. */
export async function searchableBases(db: Executor, tenant: Tenant, ids?: string[]): Promise<{ id: string; language: string }[]> {
  let q = scoped(db, tenant).selectFrom('knowledge_bases').select(['knowledge_bases.id', 'knowledge_bases.language']).where('knowledge_bases.deleting', '=', 0)
  if (ids) q = q.where('knowledge_bases.id', 'in', ids)
  return q.orderBy('knowledge_bases.id').limit(200).execute()
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
