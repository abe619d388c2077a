import { defineRoute } from '../../../kernel/http/define-route.js'
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.route.js'

export const deletePublicWebhookEndpoint = defineRoute({
  ...deleteWebhookEndpoint,
  operationId: 'deletePublicWebhookEndpoint',
  url: '/webhook-endpoints/{id}',
})
