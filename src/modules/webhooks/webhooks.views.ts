import { fromJson } from '../../kernel/db/database.js'
import type { Mode } from '../../kernel/tenant.js'
import type { PlaygroundCaptureT, WebhookAttemptT, WebhookDeliveryT, WebhookEndpointT } from './webhooks.schemas.js'
import type { WebhookAttemptsTable, WebhookDeliveriesTable, WebhookEndpointsTable, WebhookPlaygroundCapturesTable } from './webhooks.tables.js'

export function endpointView(row: WebhookEndpointsTable): WebhookEndpointT {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    description: row.description,
    event_types: fromJson(row.event_types, ['*']),
    enabled: row.enabled === 1,
    status: row.enabled === 1 ? 'enabled' : 'disabled',
    disabled_reason: row.disabled_reason,
    disabled_at: row.disabled_at,
    failing_since: row.failing_since,
    metadata: fromJson(row.metadata, {}),
    legacy_signature: row.legacy_signature === 1,
    livemode: row.mode === 'live',
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function deliveryView(row: WebhookDeliveriesTable): WebhookDeliveryT {
  return {
    id: row.id,
    object: 'webhook_delivery',
    event_id: row.event_id,
    event_type: row.event_type,
    endpoint_id: row.endpoint_id,
    status: row.status,
    attempts_count: Number(row.attempts_count),
    last_error: row.last_error,
    next_retry_at: row.next_retry_at,
    last_attempt_at: row.last_attempt_at,
    last_response_status: row.last_response_status,
    last_response_body: row.last_response_body,
    last_duration_ms: row.last_duration_ms,
    livemode: row.mode === 'live',
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function attemptView(row: WebhookAttemptsTable): WebhookAttemptT {
  return {
    id: row.id,
    object: 'webhook_attempt',
    attempt: Number(row.attempt),
    trigger: row.trigger,
    url: row.url,
    status: row.status,
    response_status: row.response_status,
    response_body: row.response_body,
    error: row.error,
    duration_ms: Number(row.duration_ms),
    created_at: row.created_at,
  }
}

/**
 * The delivered body: the event envelope, built from the stored event with `data` spliced in as stored,
 * so every attempt and replay sends exactly the same bytes.
 */
export function envelopeBody(ev: { event_id: string; type: string; created_at: string; workspace_id: string; mode: Mode; api_version: string; data: string }): string {
  return (
    `{"id":${JSON.stringify(ev.event_id)},"type":${JSON.stringify(ev.type)},"created_at":${JSON.stringify(ev.created_at)},` +
    `"workspace_id":${JSON.stringify(ev.workspace_id)},"livemode":${ev.mode === 'live'},"api_version":${JSON.stringify(ev.api_version)},"data":${ev.data}}`
  )
}

export function captureView(r: WebhookPlaygroundCapturesTable): PlaygroundCaptureT {
  return {
    id: r.id,
    object: 'webhook_playground_capture',
    method: r.method,
    path: r.path,
    query: fromJson(r.query, {}),
    headers: fromJson(r.headers, {}),
    content_type: r.content_type,
    body: r.body,
    body_encoding: r.body_encoding,
    body_size: Number(r.body_size),
    body_truncated: Number(r.body_truncated) === 1,
    source_ip: r.source_ip,
    signature: r.signature ? fromJson(r.signature, null) : null,
    received_at: r.received_at,
  }
}
