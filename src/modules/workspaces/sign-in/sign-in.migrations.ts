import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const signInMigrations: ModuleMigration[] = [
  {
    name: '202612010000_workspaces_sign_in',
    async up(db) {
      await db.schema
        .createTable('member_credentials')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('member_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('member_sessions_email').on('member_sessions').column('email').execute()
      await db.schema.createIndex('member_sessions_expires').on('member_sessions').column('expires_at').execute()
      await db.schema
        .createTable('sign_in_throttle')
        .addColumn('bucket', 'text', (c) => c.primaryKey())
        .addColumn('window_start', 'text', (c) => c.notNull())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .execute()
      // The sign-in pages look a member up by email (sessions) and by invitation token (invitation links).
      await db.schema.createIndex('workspace_members_by_email').on('workspace_members').column('email').execute()
      await db.schema.createIndex('workspace_members_by_invitation').on('workspace_members').column('invitation_token').execute()
    },
  },
]
