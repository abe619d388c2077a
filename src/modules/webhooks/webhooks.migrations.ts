import type { ModuleMigration } from '../../kernel/db/migrations.js'

export const webhooksMigrations: ModuleMigration[] = [
  {
    name: '202611220400_webhooks_init',
    async up(db) {
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('event_types', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('disabled_reason', 'text')
        .addColumn('disabled_at', 'text')
        .addColumn('failing_since', 'text')
        .addColumn('secrets', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('webhook_endpoints_tenant').on('webhook_endpoints').columns(['workspace_id', 'mode', 'id']).execute()

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts_count', 'integer', (c) => c.notNull())
        .addColumn('scheduled_attempts', 'integer', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('next_retry_at', 'text')
        .addColumn('last_attempt_at', 'text')
        .addColumn('last_response_status', 'integer')
        .addColumn('last_response_body', 'text')
        .addColumn('last_duration_ms', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      // One delivery per (event, endpoint): a fan-out that runs twice inserts nothing the second time.
      await db.schema.createIndex('webhook_deliveries_event_endpoint').on('webhook_deliveries').columns(['event_id', 'endpoint_id']).unique().execute()
      await db.schema.createIndex('webhook_deliveries_tenant').on('webhook_deliveries').columns(['workspace_id', 'mode', 'id']).execute()
      await db.schema.createIndex('webhook_deliveries_status').on('webhook_deliveries').columns(['status', 'next_retry_at']).execute()

      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('trigger', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('error', 'text')
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute()

      await db.schema
        .createTable('webhook_playground_captures')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('token', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('query', 'text', (c) => c.notNull())
        .addColumn('headers', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text')
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('body_encoding', 'text', (c) => c.notNull())
        .addColumn('body_size', 'integer', (c) => c.notNull())
        .addColumn('body_truncated', 'integer', (c) => c.notNull())
        .addColumn('source_ip', 'text', (c) => c.notNull())
        .addColumn('delivery_id', 'text')
        .addColumn('signature', 'text')
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('webhook_playground_inbox').on('webhook_playground_captures').columns(['token', 'mode', 'id']).execute()
      await db.schema.createIndex('webhook_playground_received').on('webhook_playground_captures').column('received_at').execute()
    },
  },
  {
    // Attempts are recorded before the request is sent (status "sending") and completed after; the job
    // that made one is kept so that a re-run of that job (the worker died mid-flight) finds it.
    name: '202611230200_webhooks_attempts_job',
    async up(db) {
      await db.schema.alterTable('webhook_attempts').addColumn('job_id', 'text').execute()
    },
  },
  {
    // The list's filters walked the tenant index and filtered (PostgreSQL: a parallel seq scan): a filter
    // value with few deliveries read every delivery of the workspace (~90 ms per 100,000, bench/scale.ts).
    // endpoint_id and event_type never change; status changes once or twice per delivery, in an update
    // that already rewrites the webhook_deliveries_status entry.
    name: '202611240200_webhooks_deliveries_filters',
    async up(db) {
      for (const column of ['endpoint_id', 'status', 'event_type']) {
        await db.schema.createIndex(`webhook_deliveries_tenant_${column}`).on('webhook_deliveries').columns(['workspace_id', 'mode', column, 'id']).execute()
      }
    },
  },
  {
    // Receivers still on API v1 verify X-Svc-Signature; an endpoint opts in (docs/migration-v1.md).
    name: '202612020001_webhooks_legacy_signature',
    async up(db) {
      await db.schema
        .alterTable('webhook_endpoints')
        .addColumn('legacy_signature', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
    },
  },
]
