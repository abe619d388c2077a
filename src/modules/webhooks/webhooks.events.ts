import { Type } from 'typebox'
import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'

const EndpointObject = Type.Object({
  id: Type.String(),
  object: Type.Literal('webhook_endpoint'),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  event_types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  status: Type.String(),
  disabled_reason: Type.Union([Type.String(), Type.Null()]),
  disabled_at: Type.Union([Type.String(), Type.Null()]),
})

/** The event types this module emits; every `events.emit` of the module names one of these. */
export const WEBHOOK_EVENTS = defineEvents(
  'webhooks',
  { scope: 'webhooks:read' },
  {
    'webhook.test': eventType({
      description: 'Sent by testWebhookEndpoint to that one endpoint, to check reachability and signature verification.',
      schema: Type.Object({
        object: Type.Literal('webhook_test'),
        endpoint_id: Type.String(),
        message: Type.String(),
      }),
      example: { object: 'webhook_test', endpoint_id: 'we_01JD0000000000000000000000', message: 'This is a test event from the webhooks module.' },
    }),
    'webhook_endpoint.disabled': eventType({
      description: 'An endpoint was disabled by the service: it answered 410 Gone, or every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS.',
      schema: EndpointObject,
      example: {
        id: 'we_01JD0000000000000000000000',
        object: 'webhook_endpoint',
        url: 'https://example.com/webhooks',
        description: null,
        event_types: ['*'],
        enabled: false,
        status: 'disabled',
        disabled_reason: 'The endpoint answered 410 Gone.',
        disabled_at: '2026-11-22T10:00:00.000Z',
      },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof WEBHOOK_EVENTS> {}
}
