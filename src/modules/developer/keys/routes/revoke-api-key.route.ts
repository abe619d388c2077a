import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ApiKey, ApiKeyParams } from '../keys.schemas.js'

export const revokeApiKey = defineRoute({
  operationId: 'revokeApiKey',
  method: 'POST',
  url: '/api-keys/{id}/revoke',
  module: 'developer',
  scope: 'admin',
  summary: 'Revoke an API key',
  description:
    'The key stops working: at once on this node, within a second on the others. Revoking a revoked key changes nothing and answers the key. ' + 'A key may revoke itself (the answer is still sent).',
  schema: { params: ApiKeyParams, response: { 200: ApiKey } },
  handler: ({ params, principal, services }) => services.apiKeys.revoke(principal, params.id),
})
