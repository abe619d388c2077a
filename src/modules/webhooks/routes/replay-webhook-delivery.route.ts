import { Type } from 'typebox'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, WebhookDelivery } from '../webhooks.schemas.js'

export const replayWebhookDelivery = defineRoute({
  operationId: 'replayWebhookDelivery',
  method: 'POST',
  url: '/webhooks/deliveries/{id}/replay',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Deliver the same event to the same endpoint again',
  description:
    'Queues one new attempt with the same event_id and the same body (a fresh signature timestamp). Answers 202 with the delivery; ' +
    'the attempt appears in getWebhookDelivery. Honours Idempotency-Key; limited to REPLAY_RATE_LIMIT_PER_MINUTE per key (RateLimit headers).',
  schema: {
    params: IdParams,
    body: Type.Object({}, { additionalProperties: false, title: 'ReplayWebhookDeliveryBody', description: 'No fields; the body may be omitted.' }),
    response: { 202: WebhookDelivery },
  },
  errors: ['resource_not_found', 'webhook_endpoint_unavailable'],
  rateLimit: { max: (config) => config.replayRateLimitPerMinute, timeWindowMs: 60_000, groupId: 'replay' },
  handler: ({ params, principal, services }) => services.webhooks.deliveries.replay(principal, params.id),
})
