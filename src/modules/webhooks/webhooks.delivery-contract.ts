import type { EventDelivery } from '../../kernel/http/openapi-webhooks.js'

/** How this module delivers events, for the OpenAPI `webhooks` section (docs/webhooks.md says the same). */
export const WEBHOOK_DELIVERY: EventDelivery = {
  headers: {
    SvcStatusSignature: {
      name: 'Svc-Status-Signature',
      in: 'header',
      required: true,
      description:
        '`t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: one `v1` per active secret, hex(HMAC-SHA256(key = the whole secret "whsec_…", ' +
        'message = "<t>.<raw body>")). Verify over the raw bytes, in constant time, and refuse a `t` more than 300 s from your clock.',
      schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
    },
    WebhookId: {
      name: 'webhook-id',
      in: 'header',
      required: true,
      description: 'Standard Webhooks: the event id (`evt_…`), the same in every attempt and replay; deduplicate on it.',
      schema: { type: 'string' },
    },
    WebhookTimestamp: {
      name: 'webhook-timestamp',
      in: 'header',
      required: true,
      description: 'Standard Webhooks: the same `t` as in Svc-Status-Signature (unix seconds), fresh per attempt.',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    },
    WebhookSignature: {
      name: 'webhook-signature',
      in: 'header',
      required: true,
      description:
        'Standard Webhooks: `v1,<base64>[ v1,<base64>…]`, base64 HMAC-SHA256 keyed with the base64-decoded part after `whsec_`, ' +
        'over `<webhook-id>.<webhook-timestamp>.<raw body>`; one per active secret.',
      schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
    },
    SvcEventId: { name: 'Svc-Event-Id', in: 'header', required: true, description: 'The event id (`evt_…`).', schema: { type: 'string' } },
    SvcEventType: { name: 'Svc-Event-Type', in: 'header', required: true, description: 'The event type.', schema: { type: 'string' } },
    SvcDeliveryId: {
      name: 'Svc-Delivery-Id',
      in: 'header',
      required: true,
      description: 'The delivery (`whd_…`): one per event and endpoint, the same in every attempt of it.',
      schema: { type: 'string' },
    },
  },
  responses: {
    '2XX': { description: 'Received: any 2xx within WEBHOOK_TIMEOUT_MS (default 15 s) ends the delivery as succeeded.' },
    '410': { description: 'Gone: the service disables the endpoint at once (no further attempts).' },
    default: {
      description:
        'Anything else — another status, a timeout, a connection error, a redirect (not followed) — is a failed attempt, retried on ' +
        'WEBHOOK_RETRY_SCHEDULE; `Retry-After` on 429 or 503 replaces the next delay.',
    },
  },
  note:
    'Sent as `POST <endpoint url>` to every enabled endpoint of the workspace and mode subscribed to `{type}` (or `*`), at least once: ' + 'deduplicate on `id` / `webhook-id`. See docs/webhooks.md.',
}
