import type { Generated } from 'kysely'
import type { Mode } from '../../kernel/tenant.js'

/**
 * One row per indexed chunk. `terms` holds the chunk's distinct analysed terms with their frequencies in
 * the title/headings and in the text, ` term:head:body` each, sorted (knowledge-ranking.ts): the search
 * computes BM25F from it and the lengths without re-analysing text. The full-text
 * structure itself is engine-specific and written only by raw SQL: on SQLite the FTS5 table
 * `knowledge_fts` (rowid = `rid`), on PostgreSQL the `tsv` tsvector column of this table (GIN index).
 */
export interface KnowledgeIndexTable {
  /** Integer key shared with the FTS5 row (SQLite); an identity column on PostgreSQL. */
  rid: Generated<number>
  chunk_id: string
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  document_id: string
  terms: string
  /** Analysed terms in the title and headings, and in the text (BM25F length normalisation). */
  head_len: Generated<number>
  body_len: Generated<number>
  /** Share of the chunk that reads as prose (knowledge-boilerplate.ts): 1, down to 0.4 for a page of links. */
  prose: Generated<number>
  /** Float32 little-endian bytes of the chunk's embedding, or null (no provider, or indexed without one). */
  embedding: Buffer | null
  /** The embeddings model that produced `embedding`: vectors of another model are ignored. */
  embedding_model: string | null
}

/**
 * Document frequency of each term per base: chunks of the base holding it. Written in the same transaction
 * as the index rows (knowledge-stats.repository.ts); a term leaves when no chunk holds it any more.
 */
export interface KnowledgeTermsTable {
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  term: string
  df: number
}

/** Per base: indexed chunks and the summed field lengths (BM25F's average lengths). */
export interface KnowledgeIndexStatsTable {
  knowledge_base_id: string
  workspace_id: string
  mode: Mode
  chunks: number
  head_len: number
  body_len: number
}

/** SQLite only: the contentless FTS5 table (columns kb, head, body). Read and written by raw SQL. */
export interface KnowledgeFtsTable {
  rowid: number
  kb: string
  head: string
  body: string
}

/** A group of similar questions the knowledge could not answer. */
export interface KnowledgeGapsTable {
  id: string
  workspace_id: string
  mode: Mode
  /** The first question of the group, as asked. */
  question: string
  /** JSON array: up to GAP_EXAMPLES distinct questions of the group, oldest first. */
  examples: string
  /** Distinct analysed terms of the representative question, space-separated and sorted. */
  signature: string
  term_count: number
  count: number
  first_seen_at: string
  last_seen_at: string
  best_score: number
  /** JSON array of the knowledge base ids the questions were asked of. */
  knowledge_base_ids: string
  status: 'open' | 'resolved'
  resolved_at: string | null
  resolved_by_document_id: string | null
  created_at: string
  updated_at: string
}

/** The terms of each gap's representative question: the lookup that groups a new question (see gaps service). */
export interface KnowledgeGapTermsTable {
  gap_id: string
  workspace_id: string
  mode: Mode
  term: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    knowledge_index: KnowledgeIndexTable
    knowledge_fts: KnowledgeFtsTable
    knowledge_terms: KnowledgeTermsTable
    knowledge_index_stats: KnowledgeIndexStatsTable
    knowledge_gaps: KnowledgeGapsTable
    knowledge_gap_terms: KnowledgeGapTermsTable
  }
}
