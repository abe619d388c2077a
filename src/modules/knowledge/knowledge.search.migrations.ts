import { sql } from 'kysely'
import type { ModuleMigration } from '../../kernel/db/migrations.js'

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
]
