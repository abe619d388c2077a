import { aliasRoute } from '../../../kernel/http/define-route.js'
import { getWebhookEndpoint } from './get-webhook-endpoint.route.js'

export const getPublicWebhookEndpoint = aliasRoute(getWebhookEndpoint, { operationId: 'getPublicWebhookEndpoint', url: '/webhook-endpoints/{id}' })
