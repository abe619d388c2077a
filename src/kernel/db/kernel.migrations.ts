import { sql } from 'kysely'
import type { ModuleMigration } from './migrations.js'

// Portable conventions: ids, timestamps (ISO 8601 UTC) and JSON are TEXT; booleans are INTEGER 0/1.
export const kernelMigrations: ModuleMigration[] = [
  {
    name: '202611220001_kernel_init',
    async up(db) {
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute()
      await db.schema.createIndex('api_keys_workspace').on('api_keys').columns(['workspace_id', 'mode']).execute()

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('response_content_type', 'text')
        .addColumn('locked_until', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        // The unique key is what makes concurrent requests with one key safe across processes.
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idem_key'])
        .execute()
      await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute()

      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('run_at', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_attempts', 'integer', (c) => c.notNull())
        .addColumn('retry_schedule', 'text', (c) => c.notNull())
        .addColumn('locked_by', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute()

      await db.schema
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('api_version', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('events_tenant').on('events').columns(['workspace_id', 'mode', 'id']).execute()

      await db.schema
        .createTable('request_counts')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('module', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addColumn('errors', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('request_counts_pk', ['workspace_id', 'mode', 'day', 'module', 'operation_id'])
        .execute()
    },
  },
  {
    // Claims only look at due pending jobs and at expired leases: partial indexes keep both lookups
    // small however many finished jobs the table holds.
    name: '202611220002_kernel_jobs_claim_indexes',
    async up(db) {
      await db.schema.dropIndex('jobs_due').execute()
      // Partial indexes: the same SQL on SQLite and PostgreSQL.
      await sql`create index jobs_pending_run_at on jobs (run_at) where status = 'pending'`.execute(db)
      await sql`create index jobs_running_lease on jobs (locked_until) where status = 'running'`.execute(db)
    },
  },
  {
    // The claim's owner is fenced by a random token: its effect commits only while it still holds the key.
    name: '202611230001_kernel_idempotency_lock_token',
    async up(db) {
      await db.schema.alterTable('idempotency_keys').addColumn('lock_token', 'text').execute()
      await db.schema
        .alterTable('idempotency_keys')
        .addColumn('committed', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
    },
  },
  {
    name: '202611290001_kernel_audit_log',
    async up(db) {
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('actor_type', 'text', (c) => c.notNull())
        .addColumn('actor_id', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text')
        .addColumn('target_id', 'text')
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('request_id', 'text')
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('seq', 'integer')
        .addColumn('prev_hash', 'text')
        .addColumn('hash', 'text')
        .execute()
      await db.schema.createIndex('audit_log_tenant').on('audit_log').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('audit_log_target').on('audit_log').columns(['workspace_id', 'mode', 'target_id']).execute()
      await db.schema.createIndex('audit_log_time').on('audit_log').columns(['workspace_id', 'mode', 'occurred_at']).execute()
      // One entry per position of a workspace's chain: two sealers cannot both take a seq.
      await db.schema.createIndex('audit_log_chain').on('audit_log').columns(['workspace_id', 'seq']).unique().execute()
      await db.schema.createIndex('audit_log_unsealed').on('audit_log').columns(['seq', 'workspace_id']).execute()
    },
  },
  {
    // API request logs (kernel/http/api-log.ts) and the per-day usage rollups written with them. Ids are
    // `alog_` + the request's millisecond (ULID time part) + random: time ranges are id ranges, so every
    // filter is served by one (tenant, column, id) index walked newest first.
    name: '202612010000_kernel_api_logs',
    async up(db) {
      await db.schema
        .createTable('api_logs')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text')
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('status_class', 'integer', (c) => c.notNull())
        .addColumn('duration_ms', 'double precision', (c) => c.notNull())
        .addColumn('key_id', 'text')
        .addColumn('oauth_app_id', 'text')
        .addColumn('ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('error_code', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_logs_pk', ['workspace_id', 'mode', 'id'])
        .execute()
      for (const col of ['operation_id', 'key_id', 'request_id']) {
        await db.schema.createIndex(`api_logs_${col}`).on('api_logs').columns(['workspace_id', 'mode', col, 'id']).execute()
      }
      // Partial: most requests are 2xx GETs, and a filter on those walks the primary key (nearly every row
      // matches); the rare classes and methods get an index that 2xx GETs do not pay to maintain on the
      // write path (docs/developer-tools.md "API logs and usage"). A query names the predicate to use them.
      await db.schema.createIndex('api_logs_status_class').on('api_logs').columns(['workspace_id', 'mode', 'status_class', 'id']).where(sql.ref('status_class'), '<>', 2).execute()
      await db.schema.createIndex('api_logs_method').on('api_logs').columns(['workspace_id', 'mode', 'method', 'id']).where(sql.ref('method'), '<>', 'GET').execute()
      // Requests per UTC day by operation, credential (API key, or OAuth app) and status class; '' = none.
      await db.schema
        .createTable('api_usage_days')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('status_class', 'integer', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_usage_days_pk', ['workspace_id', 'mode', 'day', 'operation_id', 'key_id', 'status_class'])
        .execute()
      // Latency histograms per UTC day and operation: `bucket` b counts durations in (1.05^(b-1), 1.05^b] ms.
      await db.schema
        .createTable('api_latency_days')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('bucket', 'integer', (c) => c.notNull())
        .addColumn('count', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('api_latency_days_pk', ['workspace_id', 'mode', 'day', 'operation_id', 'bucket'])
        .execute()
    },
  },
  {
    // The dashboard's key list shows when each key was last used (written by the request counter, at most once a second per key).
    name: '202612020000_kernel_api_key_last_used',
    async up(db) {
      await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute()
    },
  },
  {
    // The server secret's verifier (kernel/crypto/secret-verifier.ts) and the audit chain's keyed scheme:
    // each row written by the service carries a MAC (entry_mac) so that a row inserted by someone else is
    // never sealed; chains sealed before are re-sealed once under the key (kernel/audit/audit-upgrade.ts).
    name: '202612280000_kernel_instance_settings_audit_mac',
    async up(db) {
      await db.schema
        .createTable('instance_settings')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.alterTable('audit_log').addColumn('entry_mac', 'text').execute()
    },
  },
  {
    // OpenTelemetry (kernel/tracing): a job keeps the traceparent of the request (or job) that enqueued it,
    // so its span continues that trace. Null when tracing is off, and for jobs enqueued before.
    name: '202701031000_kernel_jobs_traceparent',
    async up(db) {
      await db.schema.alterTable('jobs').addColumn('traceparent', 'text').execute()
    },
  },
]
