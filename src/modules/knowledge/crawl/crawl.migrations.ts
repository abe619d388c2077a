import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const CRAWL_MIGRATIONS: ModuleMigration[] = [
  {
    name: '202611250300_knowledge_crawls',
    async up(db) {
      await db.schema
        .createTable('knowledge_crawls')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('knowledge_base_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('options', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('found_count', 'integer', (c) => c.notNull())
        .addColumn('indexed_count', 'integer', (c) => c.notNull())
        .addColumn('unchanged_count', 'integer', (c) => c.notNull())
        .addColumn('skipped_count', 'integer', (c) => c.notNull())
        .addColumn('failed_count', 'integer', (c) => c.notNull())
        .addColumn('removed_count', 'integer', (c) => c.notNull())
        .addColumn('skipped_samples', 'text', (c) => c.notNull())
        .addColumn('failed_samples', 'text', (c) => c.notNull())
        .addColumn('complete', 'integer')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // A base's crawls (the one in progress, the latest), and crawled pages per day for usage.
      await db.schema.createIndex('knowledge_crawls_base').on('knowledge_crawls').columns(['workspace_id', 'mode', 'knowledge_base_id', 'status']).execute()
      await db.schema.createIndex('knowledge_crawls_finished').on('knowledge_crawls').columns(['workspace_id', 'mode', 'finished_at']).execute()
    },
  },
]
