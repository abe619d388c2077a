import { aliasRoute } from '../../../kernel/http/define-route.js'
import { createWebhookEndpoint } from './create-webhook-endpoint.route.js'

export const createPublicWebhookEndpoint = aliasRoute(createWebhookEndpoint, { operationId: 'createPublicWebhookEndpoint', url: '/webhook-endpoints' })
