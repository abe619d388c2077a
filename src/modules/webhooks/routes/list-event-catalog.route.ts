import { defineRoute } from '../../../kernel/http/define-route.js'
import { listWebhookEvents } from './list-webhook-events.route.js'

export const listEventCatalog = defineRoute({
  ...listWebhookEvents,
  operationId: 'listEventCatalog',
  url: '/events',
  description: 'The same list as GET /webhooks/events, ordered by type.',
})
