import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const complianceMigrations: ModuleMigration[] = [
  {
    name: '202611290100_compliance',
    async up(db) {
      await db.schema
        .createTable('dsar_requests')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('subject_email', 'text')
        .addColumn('subject_phone', 'text')
        .addColumn('subject_external_id', 'text')
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('notes', 'text')
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('progress', 'text', (c) => c.notNull())
        .addColumn('export_status', 'text', (c) => c.notNull())
        .addColumn('export_key', 'text')
        .addColumn('export_sha256', 'text')
        .addColumn('export_size', 'integer')
        .addColumn('export_token_hash', 'text')
        .addColumn('export_token_sealed', 'text')
        .addColumn('export_expires_at', 'text')
        .addColumn('export_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .execute()
      await db.schema.createIndex('dsar_requests_tenant').on('dsar_requests').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('dsar_requests_token').on('dsar_requests').columns(['export_token_hash']).unique().execute()
      await db.schema
        .createTable('retention_policies')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('policies', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('retention_policies_pk', ['workspace_id', 'mode'])
        .execute()
      await db.schema
        .createTable('retention_runs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('deleted', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('retention_runs_tenant').on('retention_runs').columns(['workspace_id', 'mode', 'finished_at']).execute()
      await db.schema
        .createTable('compliance_evidence')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('period_from', 'text', (c) => c.notNull())
        .addColumn('period_to', 'text', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('json_key', 'text', (c) => c.notNull())
        .addColumn('pdf_key', 'text', (c) => c.notNull())
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('generated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('compliance_evidence_tenant').on('compliance_evidence').columns(['workspace_id', 'mode', 'id']).execute()
      // One scheduled report per kind and period: two workers cannot both make it.
      await db.schema.createIndex('compliance_evidence_period').on('compliance_evidence').columns(['workspace_id', 'mode', 'kind', 'period_from', 'trigger']).execute()
    },
  },
]
