import { aliasRoute } from '../../../kernel/http/define-route.js'
import { listWebhookEvents } from './list-webhook-events.route.js'

export const listEventCatalog = aliasRoute(listWebhookEvents, { operationId: 'listEventCatalog', url: '/events' })
