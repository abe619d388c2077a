import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, UpdateEndpointBody, WebhookEndpoint } from '../webhooks.schemas.js'

export const updateWebhookEndpoint = defineRoute({
  operationId: 'updateWebhookEndpoint',
  method: 'PATCH',
  url: '/webhooks/endpoints/{id}',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Update a webhook endpoint (url, description, event types, enabled, metadata)',
  description: '`enabled: true` re-enables an endpoint the service disabled (and resets its failure run). The URL is checked as on create.',
  schema: { params: IdParams, body: UpdateEndpointBody, response: { 200: WebhookEndpoint } },
  errors: ['resource_not_found', 'webhook_url_invalid', 'webhook_url_forbidden', 'webhook_event_type_unknown'],
  handler: ({ params, body, principal, services }) => services.webhooks.endpoints.update(principal, params.id, body),
})
