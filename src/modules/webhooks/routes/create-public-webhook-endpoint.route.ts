import { defineRoute } from '../../../kernel/http/define-route.js'
import { createWebhookEndpoint } from './create-webhook-endpoint.route.js'

export const createPublicWebhookEndpoint = defineRoute({
  ...createWebhookEndpoint,
  operationId: 'createPublicWebhookEndpoint',
  url: '/webhook-endpoints',
})
