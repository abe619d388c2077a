import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { EndpointListQuery, WebhookEndpoint } from '../webhooks.schemas.js'

export const listWebhookEndpoints = defineRoute({
  operationId: 'listWebhookEndpoints',
  method: 'GET',
  url: '/webhooks/endpoints',
  module: 'webhooks',
  scope: 'webhooks:read',
  summary: 'List webhook endpoints, newest first',
  description: 'The same endpoints as GET /webhook-endpoints. Secrets are never listed.',
  schema: { querystring: EndpointListQuery, response: { 200: Page(WebhookEndpoint, 'WebhookEndpoint') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.webhooks.endpoints.list(principal, query),
})
