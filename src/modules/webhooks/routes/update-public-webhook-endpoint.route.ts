import { aliasRoute } from '../../../kernel/http/define-route.js'
import { updateWebhookEndpoint } from './update-webhook-endpoint.route.js'

export const updatePublicWebhookEndpoint = aliasRoute(updateWebhookEndpoint, { operationId: 'updatePublicWebhookEndpoint', url: '/webhook-endpoints/{id}' })
