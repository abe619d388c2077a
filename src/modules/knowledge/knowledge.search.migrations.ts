import { sql } from 'kysely'
import type { ModuleMigration } from '../../kernel/db/migrations.js'
import { insertFtsRow, tsvectorLiteral } from './knowledge-index.repository.js'
import { termFrequencies } from './knowledge-ranking.js'
import { analyserFor, termsOf } from './knowledge.text.js'

/**
 * The search index and the gaps. The full-text part is the one non-portable schema of the module:
 * SQLite gets a contentless FTS5 table (its rows deleted by rowid, `contentless_delete`, SQLite ≥ 3.43),
 * PostgreSQL a tsvector column with a GIN index. Both hold the same JS-analysed terms (knowledge.text.ts),
 * so the tokenizers only split on spaces: unicode61 with '_' kept inside tokens (base ids), and 'simple'.
 */
export const SEARCH_MIGRATIONS: ModuleMigration[] = [
  {
    name: '202611250201_knowledge_search_index',
    async up(db, engine) {
      if (engine === 'postgres') {
        await sql`create table knowledge_index (
          rid bigint generated always as identity primary key,
          chunk_id text not null unique,
          workspace_id text not null,
          mode text not null,
          knowledge_base_id text not null,
          document_id text not null,
          terms text not null,
          embedding bytea,
          embedding_model text,
          tsv tsvector not null
        )`.execute(db)
        await sql`create index knowledge_index_tsv on knowledge_index using gin (tsv)`.execute(db)
      } else {
        await sql`create table knowledge_index (
          rid integer primary key,
          chunk_id text not null unique,
          workspace_id text not null,
          mode text not null,
          knowledge_base_id text not null,
          document_id text not null,
          terms text not null,
          embedding blob,
          embedding_model text
        )`.execute(db)
        await sql`create virtual table knowledge_fts using fts5(kb, head, body, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_'")`.execute(db)
      }
      await db.schema.createIndex('knowledge_index_base').on('knowledge_index').columns(['knowledge_base_id']).execute()
      await db.schema.createIndex('knowledge_index_document').on('knowledge_index').columns(['document_id']).execute()
    },
  },
  {
    name: '202611250202_knowledge_gaps',
    async up(db) {
      await db.schema
        .createTable('knowledge_gaps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('examples', 'text', (c) => c.notNull())
        .addColumn('signature', 'text', (c) => c.notNull())
        .addColumn('term_count', 'integer', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addColumn('first_seen_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('best_score', 'real', (c) => c.notNull())
        .addColumn('knowledge_base_ids', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('resolved_at', 'text')
        .addColumn('resolved_by_document_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // The two list orders (recent, count) and the open gaps a new document may resolve.
      await db.schema.createIndex('knowledge_gaps_recent').on('knowledge_gaps').columns(['workspace_id', 'mode', 'last_seen_at', 'id']).execute()
      await db.schema.createIndex('knowledge_gaps_count').on('knowledge_gaps').columns(['workspace_id', 'mode', 'count', 'id']).execute()
      await db.schema.createIndex('knowledge_gaps_status').on('knowledge_gaps').columns(['workspace_id', 'mode', 'status', 'last_seen_at']).execute()

      await db.schema
        .createTable('knowledge_gap_terms')
        .addColumn('gap_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('term', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('knowledge_gap_terms_pk', ['gap_id', 'term'])
        .execute()
      await db.schema.createIndex('knowledge_gap_terms_lookup').on('knowledge_gap_terms').columns(['workspace_id', 'mode', 'term', 'gap_id']).execute()
    },
  },
  {
    // Per-base term statistics for query planning and the JS BM25F (knowledge-ranking.ts): the index rows
    // gain term frequencies and field lengths, the bases document frequencies and totals, and the
    // full-text tokens are prefixed by their base (per-base posting lists). Rows indexed before are
    // re-analysed from their chunks here, so no document needs processing again.
    name: '202611270100_knowledge_search_stats',
    async up(db, engine) {
      await sql`alter table knowledge_index add column head_len integer not null default 0`.execute(db)
      await sql`alter table knowledge_index add column body_len integer not null default 0`.execute(db)
      await db.schema
        .createTable('knowledge_terms')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull())
        .addColumn('term', 'text', (c) => c.notNull())
        .addColumn('df', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('knowledge_terms_pk', ['knowledge_base_id', 'term'])
        .execute()
      await db.schema
        .createTable('knowledge_index_stats')
        .addColumn('knowledge_base_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('chunks', 'integer', (c) => c.notNull())
        .addColumn('head_len', 'bigint', (c) => c.notNull())
        .addColumn('body_len', 'bigint', (c) => c.notNull())
        .execute()
      // Searches read the GIN index directly, never a pending list that grows between vacuums.
      if (engine === 'postgres') await sql`alter index knowledge_index_tsv set (fastupdate = off)`.execute(db)
      await backfillStats(db, engine)
    },
  },
  {
    // Issue 32: each chunk's prose factor (knowledge-boilerplate.ts), set when its document is processed;
    // chunks indexed before count as prose (1) until their documents are processed again.
    name: '202611280100_knowledge_index_prose',
    async up(db) {
      await sql`alter table knowledge_index add column prose real not null default 1`.execute(db)
    },
  },
]

/** Re-analyses the chunks indexed before the statistics existed, 500 at a time (exported for its test). */
export async function backfillStats(db: Parameters<ModuleMigration['up']>[0], engine: Parameters<ModuleMigration['up']>[1]): Promise<void> {
  type Row = { rid: number; knowledge_base_id: string; workspace_id: string; mode: string; text: string; heading_path: string; title: string; language: string }
  const bases = new Map<string, { workspace_id: string; mode: string; chunks: number; head: number; body: number; df: Map<string, number> }>()
  for (let after = -1; ;) {
    const { rows } = await sql<Row>`select i.rid, i.knowledge_base_id, i.workspace_id, i.mode, c.text, c.heading_path, d.title, b.language
      from knowledge_index i join knowledge_chunks c on c.id = i.chunk_id join knowledge_documents d on d.id = i.document_id
      join knowledge_bases b on b.id = i.knowledge_base_id
      where i.rid > ${after} order by i.rid limit 500`.execute(db)
    if (rows.length === 0) break
    for (const r of rows) {
      const a = analyserFor(r.language)
      const head = termsOf([r.title, ...(JSON.parse(r.heading_path) as string[])].join('\n'), a)
      const body = termsOf(r.text, a)
      const tf = termFrequencies(head, body)
      if (engine === 'postgres') {
        const tsv = tsvectorLiteral(r.knowledge_base_id, head, body)
        await sql`update knowledge_index set terms = ${tf}, head_len = ${head.length}, body_len = ${body.length}, tsv = ${tsv}::tsvector where rid = ${r.rid}`.execute(db)
      } else {
        await sql`update knowledge_index set terms = ${tf}, head_len = ${head.length}, body_len = ${body.length} where rid = ${r.rid}`.execute(db)
        await sql`delete from knowledge_fts where rowid = ${r.rid}`.execute(db)
        await insertFtsRow(db, Number(r.rid), r.knowledge_base_id, head, body)
      }
      let s = bases.get(r.knowledge_base_id)
      if (!s) bases.set(r.knowledge_base_id, (s = { workspace_id: r.workspace_id, mode: r.mode, chunks: 0, head: 0, body: 0, df: new Map() }))
      s.chunks++
      s.head += head.length
      s.body += body.length
      for (const t of new Set([...head, ...body])) s.df.set(t, (s.df.get(t) ?? 0) + 1)
    }
    after = Number(rows[rows.length - 1].rid)
  }
  for (const [kb, s] of bases) {
    await sql`insert into knowledge_index_stats (knowledge_base_id, workspace_id, mode, chunks, head_len, body_len)
      values (${kb}, ${s.workspace_id}, ${s.mode}, ${s.chunks}, ${s.head}, ${s.body})`.execute(db)
    const terms = [...s.df]
    for (let i = 0; i < terms.length; i += 500) {
      const values = terms.slice(i, i + 500).map(([t, n]) => sql`(${s.workspace_id}, ${s.mode}, ${kb}, ${t}, ${n})`)
      await sql`insert into knowledge_terms (workspace_id, mode, knowledge_base_id, term, df) values ${sql.join(values)}`.execute(db)
    }
  }
}
