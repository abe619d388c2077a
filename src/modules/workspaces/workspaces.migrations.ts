import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const workspacesMigrations: ModuleMigration[] = [
  {
    name: '202611220100_workspaces_init',
    async up(db) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('default_language', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('workspace_members')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('invitation_token', 'text')
        .addColumn('invited_at', 'text', (c) => c.notNull())
        .addColumn('joined_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // Emails are stored lower-cased, so this is case-insensitive uniqueness.
      await db.schema.createIndex('workspace_members_email').on('workspace_members').columns(['workspace_id', 'mode', 'email']).unique().execute()
    },
  },
  {
    name: '202611270100_workspace_settings',
    async up(db) {
      await db.schema
        .createTable('workspace_settings')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('crm', 'text')
        .addColumn('lead_auto_create_score', 'integer')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('workspace_settings_pk', ['workspace_id', 'mode'])
        .execute()
    },
  },
  {
    name: '202611280050_workspace_settings_voice',
    async up(db) {
      await db.schema.alterTable('workspace_settings').addColumn('voice', 'text').execute()
    },
  },
  {
    name: '202612300100_workspaces_default_region',
    async up(db) {
      await db.schema.alterTable('workspaces').addColumn('default_region', 'text').execute()
    },
  },
]
