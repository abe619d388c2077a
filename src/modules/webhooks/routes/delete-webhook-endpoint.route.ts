import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedEndpoint, IdParams } from '../webhooks.schemas.js'

export const deleteWebhookEndpoint = defineRoute({
  operationId: 'deleteWebhookEndpoint',
  method: 'DELETE',
  url: '/webhooks/endpoints/{id}',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Delete a webhook endpoint',
  description: 'Its pending deliveries end as failed; delivery history stays listable.',
  schema: { params: IdParams, response: { 200: DeletedEndpoint } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.webhooks.endpoints.delete(principal, params.id),
})
