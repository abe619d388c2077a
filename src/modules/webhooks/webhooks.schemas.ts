import { Type, type Static } from 'typebox'
import { PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })

export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'Up to 50 string key/value pairs.',
})

const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  minItems: 1,
  maxItems: 100,
  uniqueItems: true,
  description: 'Event types to receive (see GET /events); `["*"]` means every type, including future ones.',
})

export const WebhookEndpoint = Type.Object(
  {
    id: Type.String({ examples: ['we_01JD0000000000000000000000'] }),
    object: Type.Literal('webhook_endpoint'),
    url: Type.String({ format: 'uri' }),
    description: Nullable(Type.String()),
    event_types: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    disabled_reason: Nullable(Type.String({ description: 'Why the service disabled it (410 Gone, failing for too long), or null.' })),
    disabled_at: Nullable(DateTime),
    failing_since: Nullable(Type.String({ format: 'date-time', description: 'Start of the current run of failed attempts.' })),
    metadata: Metadata,
    legacy_signature: Type.Boolean({
      deprecated: true,
      description:
        'Deprecated (receivers on API v1): also send `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the newest secret>`, beside Svc-Status-Signature. Off by default; verify Svc-Status-Signature instead (docs/migration-v1.md).',
    }),
    livemode: Type.Boolean(),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'WebhookEndpoint' },
)
export type WebhookEndpointT = Static<typeof WebhookEndpoint>

export const WebhookEndpointWithSecret = Type.Object(
  {
    ...WebhookEndpoint.properties,
    secret: Type.String({ description: 'The signing secret (whsec_…). Shown only in this response; store it now.' }),
    previous_secret_expires_at: Nullable(Type.String({ format: 'date-time', description: 'Until when the previous secret still signs (rotation grace).' })),
  },
  { $id: 'WebhookEndpointWithSecret' },
)
export type WebhookEndpointWithSecretT = Static<typeof WebhookEndpointWithSecret>

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'https on the live URL; http also in the sandbox.' }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    event_types: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean({ default: true })),
    metadata: Type.Optional(Metadata),
    legacy_signature: Type.Optional(
      Type.Boolean({
        deprecated: true,
        description:
          'Deprecated (receivers on API v1): also send `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the newest secret>`, beside Svc-Status-Signature. Off by default; verify Svc-Status-Signature instead (docs/migration-v1.md).',
      }),
    ),
  },
  { additionalProperties: false, title: 'CreateWebhookEndpointBody' },
)
export type CreateEndpointBodyT = Static<typeof CreateEndpointBody>

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    event_types: Type.Optional(EventTypes),
    enabled: Type.Optional(Type.Boolean({ description: 'false pauses deliveries; true re-enables a disabled endpoint.' })),
    metadata: Type.Optional(Metadata),
    legacy_signature: Type.Optional(
      Type.Boolean({
        deprecated: true,
        description:
          'Deprecated (receivers on API v1): also send `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the newest secret>`, beside Svc-Status-Signature. Off by default; verify Svc-Status-Signature instead (docs/migration-v1.md).',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateWebhookEndpointBody' },
)
export type UpdateEndpointBodyT = Static<typeof UpdateEndpointBody>

export const RotateSecretBody = Type.Object(
  {
    grace_period_seconds: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 7 * 86400, default: 86400, description: 'How long the old secret keeps signing alongside the new one (default 24 h; 0 = stop now).' }),
    ),
  },
  { additionalProperties: false, title: 'RotateWebhookSecretBody' },
)

export const DeletedEndpoint = Type.Object({ id: Type.String(), object: Type.Literal('webhook_endpoint'), deleted: Type.Literal(true) }, { $id: 'DeletedWebhookEndpoint' })

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const EndpointListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], { title: 'WebhookDeliveryStatus' })

const deliveryFields = {
  id: Type.String({ examples: ['whd_01JD0000000000000000000000'] }),
  object: Type.Literal('webhook_delivery'),
  event_id: Type.String({ description: 'The event (evt_…): the same in every attempt and replay; also the webhook-id header.' }),
  event_type: Type.String(),
  endpoint_id: Type.String(),
  status: DeliveryStatus,
  attempts_count: Type.Integer({
    description:
      'Attempts made so far whose outcome is recorded, replays included: the attempts of getWebhookDelivery that are ' +
      'not `sending`. An attempt in flight is counted when its answer (or its interruption) is recorded.',
  }),
  last_error: Nullable(Type.String()),
  next_retry_at: Nullable(Type.String({ format: 'date-time', description: 'When the next scheduled attempt is due (pending only).' })),
  last_attempt_at: Nullable(DateTime),
  last_response_status: Nullable(Type.Integer()),
  last_response_body: Nullable(Type.String({ description: 'The first 2 KiB of the last response body.' })),
  last_duration_ms: Nullable(Type.Integer()),
  livemode: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
}
export const WebhookDelivery = Type.Object(deliveryFields, { $id: 'WebhookDelivery' })
export type WebhookDeliveryT = Static<typeof WebhookDelivery>

export const WebhookAttempt = Type.Object(
  {
    id: Type.String({ examples: ['wha_01JD0000000000000000000000'] }),
    object: Type.Literal('webhook_attempt'),
    attempt: Type.Integer({ description: '1 for the first attempt, counting replays.' }),
    trigger: Type.Union([Type.Literal('scheduled'), Type.Literal('replay')]),
    url: Type.String(),
    status: Type.Union([Type.Literal('sending'), Type.Literal('succeeded'), Type.Literal('failed')], {
      description:
        '`sending`: the request is in flight (the attempt is recorded before it is sent; `attempts_count` counts it once ' +
        'its outcome is known). `succeeded`: a 2xx in time. `failed`: anything else, including an attempt cut off by a ' +
        'worker that stopped mid-flight (`error` starts with `interrupted:`; the receiver may have got that request).',
    }),
    response_status: Nullable(Type.Integer()),
    response_body: Nullable(Type.String()),
    error: Nullable(Type.String()),
    duration_ms: Type.Integer({ description: '0 while sending, and for an interrupted attempt.' }),
    created_at: Type.String({ format: 'date-time', description: 'When the attempt started (before the request was sent).' }),
  },
  { $id: 'WebhookAttempt' },
)
export type WebhookAttemptT = Static<typeof WebhookAttempt>

export const WebhookDeliveryDetail = Type.Object({ ...deliveryFields, attempts: Type.Array(WebhookAttempt, { description: 'Every attempt, newest first.' }) }, { $id: 'WebhookDeliveryDetail' })
export type WebhookDeliveryDetailT = Static<typeof WebhookDeliveryDetail>

export const DeliveryListQuery = Type.Object(
  {
    ...PageQuery,
    endpoint_id: Type.Optional(Type.String({ maxLength: 64 })),
    status: Type.Optional(DeliveryStatus),
    event_type: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
)
export type DeliveryListQueryT = Static<typeof DeliveryListQuery>

export const EventTypeView = Type.Object(
  {
    object: Type.Literal('event_type'),
    type: Type.String({ examples: ['webhook.test'] }),
    module: Type.String(),
    description: Type.String(),
    schema: Type.Record(Type.String(), Type.Unknown(), { description: 'JSON Schema of data.object.' }),
    example: Type.Record(Type.String(), Type.Unknown(), { description: 'An example data.object.' }),
  },
  { $id: 'EventType' },
)
export type EventTypeViewT = Static<typeof EventTypeView>
export const EventTypeListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

// ---- Playground ----

export const PlaygroundParams = Type.Object({ token: Type.String({ maxLength: 200, description: '22–64 characters of A–Z a–z 0–9 _ -; generate ≥128 random bits.' }) })
export const PlaygroundQuery = Type.Object({ ...PageQuery }, { additionalProperties: true, description: 'cursor and limit page the listing (GET); every parameter is recorded.' })

export const SignatureCheck = Type.Object(
  {
    delivery_id: Type.String(),
    endpoint_id: Type.String(),
    result: Type.Union([
      Type.Literal('valid'),
      Type.Literal('header_missing'),
      Type.Literal('header_malformed'),
      Type.Literal('timestamp_outside_tolerance'),
      Type.Literal('secret_rotated'),
      Type.Literal('body_changed'),
      Type.Literal('signature_mismatch'),
    ]),
    valid: Type.Boolean(),
    detail: Type.String(),
    timestamp: Nullable(Type.Integer()),
    timestamp_age_seconds: Nullable(Type.Integer()),
    signatures_sent: Type.Integer(),
  },
  { $id: 'WebhookSignatureCheck', description: 'Present when the request is one of our own deliveries to this Playground.' },
)

export const PlaygroundCapture = Type.Object(
  {
    id: Type.String({ examples: ['whc_01JD0000000000000000000000'] }),
    object: Type.Literal('webhook_playground_capture'),
    method: Type.String(),
    path: Type.String(),
    query: Type.Record(Type.String(), Type.Union([Type.String(), Type.Array(Type.String())])),
    headers: Type.Record(Type.String(), Type.String(), { description: 'Request headers, credentials (Authorization, Cookie, …) removed.' }),
    content_type: Nullable(Type.String()),
    body: Type.String({ description: 'UTF-8 text, or base64 when body_encoding is base64.' }),
    body_encoding: Type.Union([Type.Literal('utf8'), Type.Literal('base64')]),
    body_size: Type.Integer({ description: 'Size in bytes of the received body.' }),
    body_truncated: Type.Boolean(),
    source_ip: Type.String(),
    signature: Nullable(SignatureCheck),
    received_at: DateTime,
  },
  { $id: 'WebhookPlaygroundCapture' },
)
export type PlaygroundCaptureT = Static<typeof PlaygroundCapture>

export const PlaygroundReceipt = Type.Object(
  {
    object: Type.Literal('webhook_playground_receipt'),
    capture_id: Type.String(),
    token: Type.String(),
    inbox_url: Type.String({ description: 'GET it to list the captures.' }),
    received_at: DateTime,
    signature: Nullable(SignatureCheck),
  },
  { $id: 'WebhookPlaygroundReceipt' },
)
export type PlaygroundReceiptT = Static<typeof PlaygroundReceipt>

export const PlaygroundStreamQuery = Type.Object(
  {
    after: Type.Optional(Type.String({ pattern: '^whc_[0-9A-Z]{26}$', description: 'Only the captures after this one (the last capture id received): how a client resumes on any node.' })),
    follow: Type.Optional(Type.Boolean({ default: true, description: '`false`: send the captures already there, then end the stream (like `tail` without `-f`).' })),
  },
  { additionalProperties: false },
)

export const PlaygroundStreamReady = Type.Object(
  {
    object: Type.Literal('webhook_playground_stream'),
    token: Type.String(),
    inbox_url: Type.String({ description: 'The inbox URL: point an endpoint (or any client) at it.' }),
  },
  { $id: 'WebhookPlaygroundStreamReady' },
)

export const PlaygroundStreamEvent = Type.Union([PlaygroundCapture, PlaygroundStreamReady], {
  $id: 'WebhookPlaygroundStreamEvent',
  description: '`ready`: a WebhookPlaygroundStreamReady; `capture`: a WebhookPlaygroundCapture, as the inbox listing shows it; `error`: a problem.',
})
