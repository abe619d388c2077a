import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const sdkGenerationsMigrations: ModuleMigration[] = [
  {
    name: '202612010002_developer_sdk_generations',
    async up(db) {
      await db.schema
        .createTable('developer_sdk_generations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('package_name', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('api_version', 'text', (c) => c.notNull())
        .addColumn('document_sha256', 'text', (c) => c.notNull())
        .addColumn('document_key', 'text')
        .addColumn('operations', 'integer')
        .addColumn('archive_key', 'text')
        .addColumn('archive_sha256', 'text')
        .addColumn('archive_size', 'integer')
        .addColumn('archive_files', 'integer')
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('token_sealed', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text')
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .execute()
      await db.schema.createIndex('developer_sdk_generations_tenant').on('developer_sdk_generations').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('developer_sdk_generations_token').on('developer_sdk_generations').columns(['token_hash']).unique().execute()
      // The maintenance purge of expired archives.
      await db.schema.createIndex('developer_sdk_generations_expiry').on('developer_sdk_generations').columns(['status', 'expires_at']).execute()
    },
  },
]
