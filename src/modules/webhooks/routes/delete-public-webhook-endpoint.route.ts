import { aliasRoute } from '../../../kernel/http/define-route.js'
import { deleteWebhookEndpoint } from './delete-webhook-endpoint.route.js'

export const deletePublicWebhookEndpoint = aliasRoute(deleteWebhookEndpoint, { operationId: 'deletePublicWebhookEndpoint', url: '/webhook-endpoints/{id}' })
