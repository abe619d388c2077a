import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, WebhookEndpoint } from '../webhooks.schemas.js'

export const getWebhookEndpoint = defineRoute({
  operationId: 'getWebhookEndpoint',
  method: 'GET',
  url: '/webhooks/endpoints/{id}',
  module: 'webhooks',
  scope: 'webhooks:read',
  summary: 'Get a webhook endpoint',
  description: 'The secret is not included; it was shown when the endpoint was created or its secret rotated.',
  schema: { params: IdParams, response: { 200: WebhookEndpoint } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.webhooks.endpoints.get(principal, params.id),
})
