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
  hash: string | null
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

declare module './database.js' {
  interface Tables {
    api_keys: ApiKeysTable
    idempotency_keys: IdempotencyKeysTable
    jobs: JobsTable
    events: EventsTable
    request_counts: RequestCountsTable
    audit_log: AuditLogTable
  }
}
