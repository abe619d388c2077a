import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { DeliveryListQuery, WebhookDelivery } from '../webhooks.schemas.js'

export const listWebhookDeliveries = defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  url: '/webhooks/deliveries',
  module: 'webhooks',
  scope: 'webhooks:read',
  summary: 'List deliveries, newest first, by endpoint, status or event type',
  schema: { querystring: DeliveryListQuery, response: { 200: Page(WebhookDelivery, 'WebhookDelivery') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.webhooks.deliveries.list(principal, query),
})
