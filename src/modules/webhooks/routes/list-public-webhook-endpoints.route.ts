import { aliasRoute } from '../../../kernel/http/define-route.js'
import { listWebhookEndpoints } from './list-webhook-endpoints.route.js'

export const listPublicWebhookEndpoints = aliasRoute(listWebhookEndpoints, { operationId: 'listPublicWebhookEndpoints', url: '/webhook-endpoints' })
