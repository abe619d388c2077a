import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const sandboxMigrations: ModuleMigration[] = [
  {
    name: '202612010001_developer_sandbox_workspaces',
    async up(db) {
      await db.schema
        .createTable('developer_sandbox_workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('sandbox_workspace_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('api_key_prefix', 'text', (c) => c.notNull())
        .addColumn('api_key_scopes', 'text', (c) => c.notNull())
        .addColumn('playground_token_sealed', 'text', (c) => c.notNull())
        .addColumn('seeded', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('ready_at', 'text')
        .execute()
      await db.schema.createIndex('developer_sandbox_workspaces_tenant').on('developer_sandbox_workspaces').columns(['workspace_id', 'mode', 'id']).execute()
      // A workspace is the sandbox of at most one parent; also how a sandbox is recognised as one.
      await db.schema.createIndex('developer_sandbox_workspaces_sandbox').on('developer_sandbox_workspaces').columns(['sandbox_workspace_id']).unique().execute()
    },
  },
]
