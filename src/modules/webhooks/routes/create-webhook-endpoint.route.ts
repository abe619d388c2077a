import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateEndpointBody, WebhookEndpointWithSecret } from '../webhooks.schemas.js'

export const createWebhookEndpoint = defineRoute({
  operationId: 'createWebhookEndpoint',
  method: 'POST',
  url: '/webhooks/endpoints',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Create a webhook endpoint',
  description:
    'Returns the signing secret (whsec_…) once; it is never shown again (rotate to get a new one). https is required on the live URL; ' +
    'destinations resolving to loopback or private addresses are refused (422) unless the operator allows private networks; link-local and cloud metadata addresses always are (every IPv6 form embedding one included). ' +
    'Send an Idempotency-Key to create it exactly once.',
  schema: { body: CreateEndpointBody, response: { 201: WebhookEndpointWithSecret } },
  errors: ['webhook_url_invalid', 'webhook_url_forbidden', 'webhook_event_type_unknown'],
  handler: ({ body, principal, services }) => services.webhooks.endpoints.create(principal, body),
})
