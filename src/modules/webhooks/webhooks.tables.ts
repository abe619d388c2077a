import type { Mode } from '../../kernel/tenant.js'

/** One signing secret of an endpoint; `expires_at` null = active until the next rotation. */
export interface StoredSecret {
  secret: string
  created_at: string
  expires_at: string | null
}

export interface WebhookEndpointsTable {
  id: string
  workspace_id: string
  mode: Mode
  url: string
  description: string | null
  /** JSON array of event types; `["*"]` = every type. */
  event_types: string
  enabled: number
  disabled_reason: string | null
  disabled_at: string | null
  /** Start of the current run of failed attempts (null after any success): drives auto-disable. */
  failing_since: string | null
  /** JSON array of StoredSecret, newest first; kept in a form that can sign (HMAC needs the secret). */
  secrets: string
  metadata: string
  /** 1 = deliveries also carry the deprecated v1 header X-Svc-Signature (webhooks.signing.ts legacySignature). */
  legacy_signature: number
  created_at: string
  updated_at: string
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed'

export interface WebhookDeliveriesTable {
  id: string
  workspace_id: string
  mode: Mode
  event_id: string
  event_type: string
  endpoint_id: string
  status: DeliveryStatus
  attempts_count: number
  /** Scheduled attempts made so far (replays excluded): the position in the retry schedule. */
  scheduled_attempts: number
  last_error: string | null
  next_retry_at: string | null
  last_attempt_at: string | null
  last_response_status: number | null
  last_response_body: string | null
  last_duration_ms: number | null
  created_at: string
  updated_at: string
}

/**
 * `sending`: recorded before the request is sent, completed (succeeded/failed) with the answer; one left
 * `sending` by a worker that died is marked failed (interrupted) by the re-run of its job.
 */
export type AttemptStatus = 'sending' | 'succeeded' | 'failed'

export interface WebhookAttemptsTable {
  id: string
  delivery_id: string
  workspace_id: string
  mode: Mode
  attempt: number
  trigger: 'scheduled' | 'replay'
  url: string
  status: AttemptStatus
  response_status: number | null
  response_body: string | null
  error: string | null
  /** 0 while sending, and for an interrupted attempt (its end is unknown). */
  duration_ms: number
  /** When the attempt was started (recorded before sending). */
  created_at: string
  /** The `webhooks.deliver` job that made it: a re-run of that job finds what its earlier run left in flight. */
  job_id: string | null
}

/** Playground captures are not tenant data: they belong to whoever knows the token (per mode). */
export interface WebhookPlaygroundCapturesTable {
  id: string
  token: string
  mode: Mode
  method: string
  path: string
  query: string
  headers: string
  content_type: string | null
  body: string
  body_encoding: 'utf8' | 'base64'
  body_size: number
  body_truncated: number
  source_ip: string
  delivery_id: string | null
  signature: string | null
  received_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    webhook_endpoints: WebhookEndpointsTable
    webhook_deliveries: WebhookDeliveriesTable
    webhook_attempts: WebhookAttemptsTable
    webhook_playground_captures: WebhookPlaygroundCapturesTable
  }
}
