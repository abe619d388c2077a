import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const snapshotsMigrations: ModuleMigration[] = [
  {
    name: '202612010001_developer_openapi_snapshots',
    async up(db) {
      await db.schema
        .createTable('developer_openapi_snapshots')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('label', 'text')
        .addColumn('api_version', 'text', (c) => c.notNull())
        .addColumn('openapi_version', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('operation_count', 'integer', (c) => c.notNull())
        .addColumn('size_bytes', 'integer', (c) => c.notNull())
        .addColumn('document_key', 'text', (c) => c.notNull())
        .addColumn('previous_id', 'text')
        .addColumn('unchanged', 'integer', (c) => c.notNull())
        .addColumn('diff', 'text')
        .addColumn('breaking_count', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('developer_openapi_snapshots_tenant').on('developer_openapi_snapshots').columns(['workspace_id', 'mode', 'id']).execute()
    },
  },
]
