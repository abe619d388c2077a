import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { EventTypeListQuery, EventTypeView } from '../webhooks.schemas.js'

export const listWebhookEvents = defineRoute({
  operationId: 'listWebhookEvents',
  method: 'GET',
  url: '/webhooks/events',
  module: 'webhooks',
  scope: 'webhooks:read',
  summary: 'The event catalog: every event type, with its module, description, payload JSON Schema and example',
  description: 'Ordered by type.',
  schema: { querystring: EventTypeListQuery, response: { 200: Page(EventTypeView, 'EventType') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.webhooks.listEventTypes(principal, query),
})
