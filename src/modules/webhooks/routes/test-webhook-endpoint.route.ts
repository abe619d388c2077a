import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, WebhookDelivery } from '../webhooks.schemas.js'

export const testWebhookEndpoint = defineRoute({
  operationId: 'testWebhookEndpoint',
  method: 'POST',
  url: '/webhooks/endpoints/{id}/test',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Send a webhook.test event to this endpoint only',
  description: 'Returns the new delivery (status pending); follow it with getWebhookDelivery. Retries like any delivery.',
  schema: { params: IdParams, response: { 201: WebhookDelivery } },
  errors: ['resource_not_found', 'webhook_endpoint_unavailable'],
  handler: ({ params, principal, services }) => services.webhooks.endpoints.test(principal, params.id),
})
