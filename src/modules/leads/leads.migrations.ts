import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const leadsMigrations: ModuleMigration[] = [
  {
    name: '202611270200_leads',
    async up(db) {
      await db.schema
        .createTable('leads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('email', 'text')
        .addColumn('phone', 'text')
        .addColumn('company', 'text')
        .addColumn('title', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text')
        .addColumn('owner_id', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('score', 'integer', (c) => c.notNull())
        .addColumn('score_factors', 'text', (c) => c.notNull())
        .addColumn('qualification', 'text')
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('tags', 'text', (c) => c.notNull())
        .addColumn('crm_provider', 'text')
        .addColumn('crm_external_id', 'text')
        .addColumn('crm_synced_at', 'text')
        .addColumn('crm_sync_status', 'text', (c) => c.notNull())
        .addColumn('crm_last_error', 'text')
        .addColumn('crm_sync_seq', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('leads_tenant').on('leads').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('leads_status').on('leads').columns(['workspace_id', 'mode', 'status', 'id']).execute()
      await db.schema.createIndex('leads_updated').on('leads').columns(['workspace_id', 'mode', 'updated_at', 'id']).execute()
      await db.schema.createIndex('leads_created').on('leads').columns(['workspace_id', 'mode', 'created_at']).execute()
      // One lead per email and workspace mode (emails stored lower-cased; NULLs are distinct on both engines).
      await db.schema.createIndex('leads_email').on('leads').columns(['workspace_id', 'mode', 'email']).unique().execute()
      // One lead per source (a conversation makes one lead, however many times it is asked to).
      await db.schema.createIndex('leads_source').on('leads').columns(['workspace_id', 'mode', 'source', 'source_id']).unique().execute()
      await db.schema
        .createTable('lead_activities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('lead_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('subject', 'text')
        .addColumn('body', 'text')
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('lead_activities_lead').on('lead_activities').columns(['workspace_id', 'mode', 'lead_id', 'id']).execute()
      await db.schema.createIndex('lead_activities_created').on('lead_activities').columns(['workspace_id', 'mode', 'created_at']).execute()
    },
  },
]
