import { defineRoute } from '../../../kernel/http/define-route.js'
import { listWebhookEndpoints } from './list-webhook-endpoints.route.js'

/** The /webhook-endpoints family: the same operation as listWebhookEndpoints under another path. */
export const listPublicWebhookEndpoints = defineRoute({
  ...listWebhookEndpoints,
  operationId: 'listPublicWebhookEndpoints',
  url: '/webhook-endpoints',
  description: 'The same endpoints as GET /webhooks/endpoints. Secrets are never listed.',
})
