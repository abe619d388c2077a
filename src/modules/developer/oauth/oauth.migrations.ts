import type { ModuleMigration } from '../../../kernel/db/migrations.js'

export const oauthMigrations: ModuleMigration[] = [
  {
    name: '202612010001_developer_oauth',
    async up(db) {
      await db.schema
        .createTable('oauth_apps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('allowed_scopes', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text')
        .addColumn('secret_prefix', 'text')
        .addColumn('previous_secret_hash', 'text')
        .addColumn('previous_secret_expires_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('oauth_apps_tenant').on('oauth_apps').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema
        .createTable('oauth_grants')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('member_id', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull().unique())
        .addColumn('code_challenge', 'text')
        .addColumn('code_expires_at', 'text', (c) => c.notNull())
        .addColumn('code_used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('revoked_reason', 'text')
        .execute()
      await db.schema.createIndex('oauth_grants_tenant').on('oauth_grants').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema
        .createTable('oauth_tokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('app_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('rotated_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute()
      await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute()
      await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute()
    },
  },
  {
    // Deleting an app revokes its grants in every workspace that authorized it: found by app, not by tenant.
    name: '202612290001_developer_oauth_grants_app',
    async up(db) {
      await db.schema.createIndex('oauth_grants_app').on('oauth_grants').column('app_id').execute()
    },
  },
]
