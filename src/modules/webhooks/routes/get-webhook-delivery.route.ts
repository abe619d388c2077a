import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, WebhookDeliveryDetail } from '../webhooks.schemas.js'

export const getWebhookDelivery = defineRoute({
  operationId: 'getWebhookDelivery',
  method: 'GET',
  url: '/webhooks/deliveries/{id}',
  module: 'webhooks',
  scope: 'webhooks:read',
  summary: 'Get a delivery with every attempt',
  schema: { params: IdParams, response: { 200: WebhookDeliveryDetail } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.webhooks.deliveries.get(principal, params.id),
})
