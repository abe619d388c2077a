import type { Generated } from 'kysely'
import type { Mode } from '../tenant.js'

export interface ApiKeysTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string | null
  prefix: string
  key_hash: string
  scopes: string
  created_at: string
  revoked_at: string | null
  /** Written at most once a second per key by the request counter; null = never used. */
  last_used_at: string | null
}
export interface IdempotencyKeysTable {
  api_key_id: string
  idem_key: string
  request_hash: string
  /** in_progress → committed (the effect's transaction committed; response_body is provisional) → completed. */
  status: 'in_progress' | 'committed' | 'completed'
  /** Random per claim: the effect's transaction commits only while this claim still holds the key. */
  lock_token: string | null
  /** 1 once an effect committed under the key (in its own transaction); the tests check every write does. */
  committed: Generated<number>
  response_status: number | null
  response_body: string | null
  response_content_type: string | null
  locked_until: string
  created_at: string
}
/** One change (kernel/audit/audit.ts): append-only, hash-chained per workspace once sealed. */
export interface AuditLogTable {
  id: string
  workspace_id: string
  mode: Mode
  actor_type: string
  actor_id: string | null
  action: string
  target_type: string | null
  target_id: string | null
  /** JSON string[]: names of the fields the request set. */
  fields: string
  /** JSON string[]: the event types the change emitted. */
  events: string
  ip: string | null
  user_agent: string | null
  request_id: string | null
  occurred_at: string
  /** Position in the workspace's chain; null until sealed. */
  seq: number | null
  prev_hash: string | null
  /** HMAC-SHA256 under the audit chain key (kernel/audit/audit-chain.ts) of the content, seq and prev_hash. */
  hash: string | null
  /** HMAC-SHA256 of the content as the service wrote it: only such rows are sealed into the chain. */
  entry_mac?: string | null
}
/** Instance-wide facts every node checks at start (the server secret's verifier, the audit chain scheme). */
export interface InstanceSettingsTable {
  key: string
  value: string
  updated_at: string
}
export interface JobsTable {
  id: string
  name: string
  payload: string
  status: 'pending' | 'running' | 'succeeded' | 'failed'
  run_at: string
  attempts: number
  max_attempts: number
  retry_schedule: string
  locked_by: string | null
  locked_until: string | null
  last_error: string | null
  created_at: string
  updated_at: string
  /** The W3C traceparent of the span that enqueued it (tracing on), so the job's span continues that trace. */
  traceparent: string | null
}
export interface EventsTable {
  id: string
  workspace_id: string
  mode: Mode
  type: string
  api_version: string
  data: string
  created_at: string
}
export interface RequestCountsTable {
  workspace_id: string
  mode: Mode
  day: string
  module: string
  operation_id: string
  count: number
  errors: number
}
/** One API request (kernel/http/api-log.ts): never a body, a query string or a credential. */
export interface ApiLogsTable {
  workspace_id: string
  mode: Mode
  /** `alog_` + ULID whose time part is `created_at`'s millisecond. */
  id: string
  request_id: string
  method: string
  /** The URL path as requested, without the query string. */
  path: string
  operation_id: string | null
  status: number
  /** status / 100 (2 = 2xx …): the status_class filter's index column. */
  status_class: number
  duration_ms: number
  /** The credential's id: an API key (`key_…`) or what an OAuth principal carries as its key id. */
  key_id: string | null
  oauth_app_id: string | null
  ip: string | null
  /** Truncated to 256 characters. */
  user_agent: string | null
  /** The problem's `code` of a 4xx/5xx answer. */
  error_code: string | null
  created_at: string
}
export interface ApiUsageDaysTable {
  workspace_id: string
  mode: Mode
  day: string
  operation_id: string
  key_id: string
  status_class: number
  count: number
}
export interface ApiLatencyDaysTable {
  workspace_id: string
  mode: Mode
  day: string
  operation_id: string
  bucket: number
  count: number
}

declare module './database.js' {
  interface Tables {
    api_keys: ApiKeysTable
    idempotency_keys: IdempotencyKeysTable
    jobs: JobsTable
    events: EventsTable
    request_counts: RequestCountsTable
    audit_log: AuditLogTable
    instance_settings: InstanceSettingsTable
    api_logs: ApiLogsTable
    api_usage_days: ApiUsageDaysTable
    api_latency_days: ApiLatencyDaysTable
  }
}
