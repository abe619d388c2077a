import type { ModuleMigration } from '../../kernel/db/migrations.js'
import { CRAWL_MIGRATIONS } from './crawl/crawl.migrations.js'
import { SEARCH_MIGRATIONS } from './knowledge.search.migrations.js'

const DOCS_MIGRATIONS: ModuleMigration[] = [
  {
    name: '202611250100_knowledge_bases_documents',
    async up(db, engine) {
      await db.schema
        .createTable('knowledge_bases')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('chunk_size', 'integer', (c) => c.notNull())
        .addColumn('chunk_overlap', 'integer', (c) => c.notNull())
        .addColumn('document_count', 'integer', (c) => c.notNull())
        .addColumn('chunk_count', 'integer', (c) => c.notNull())
        .addColumn('last_crawl', 'text')
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('deleting', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('knowledge_bases_tenant').on('knowledge_bases').columns(['workspace_id', 'mode', 'id']).execute()

      await db.schema
        .createTable('knowledge_documents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('filename', 'text')
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('format', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('source_url', 'text')
        .addColumn('crawl_id', 'text')
        .addColumn('etag', 'text')
        .addColumn('last_modified', 'text')
        .addColumn('checksum', 'text', (c) => c.notNull())
        .addColumn('dedupe_key', 'text')
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('text', 'text')
        .addColumn('structure', 'text')
        .addColumn('page_count', 'integer')
        .addColumn('chunk_count', 'integer', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // Lists of a base (newest first, optionally by status) and the crawler's page lookup by URL.
      await db.schema.createIndex('knowledge_documents_base').on('knowledge_documents').columns(['workspace_id', 'mode', 'knowledge_base_id', 'id']).execute()
      await db.schema.createIndex('knowledge_documents_base_status').on('knowledge_documents').columns(['workspace_id', 'mode', 'knowledge_base_id', 'status', 'id']).execute()
      await db.schema.createIndex('knowledge_documents_source_url').on('knowledge_documents').columns(['knowledge_base_id', 'source_url']).execute()
      // NULLs never collide (crawled pages, failed documents), on both engines.
      await db.schema.createIndex('knowledge_documents_dedupe').on('knowledge_documents').columns(['knowledge_base_id', 'dedupe_key']).unique().execute()
      // Usage per day and the health check's backlog.
      await db.schema.createIndex('knowledge_documents_created').on('knowledge_documents').columns(['workspace_id', 'mode', 'created_at']).execute()
      await db.schema.createIndex('knowledge_documents_status').on('knowledge_documents').columns(['status', 'updated_at']).execute()

      await db.schema
        .createTable('knowledge_document_sources')
        .addColumn('document_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('body', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('knowledge_chunks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull())
        .addColumn('document_id', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('start_offset', 'integer', (c) => c.notNull())
        .addColumn('end_offset', 'integer', (c) => c.notNull())
        .addColumn('heading_path', 'text', (c) => c.notNull())
        .addColumn('page', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('knowledge_chunks_document').on('knowledge_chunks').columns(['document_id', 'position']).execute()
      await db.schema.createIndex('knowledge_chunks_created').on('knowledge_chunks').columns(['workspace_id', 'mode', 'created_at']).execute()
    },
  },
]

/** The module's migrations: bases/documents/chunks here, the search index and crawls from their owners' files. */
export const knowledgeMigrations: ModuleMigration[] = [...DOCS_MIGRATIONS, ...SEARCH_MIGRATIONS, ...CRAWL_MIGRATIONS]
