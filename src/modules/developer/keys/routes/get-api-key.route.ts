import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ApiKey, ApiKeyParams } from '../keys.schemas.js'

export const getApiKey = defineRoute({
  operationId: 'getApiKey',
  method: 'GET',
  url: '/api-keys/{id}',
  module: 'developer',
  scope: 'admin',
  summary: 'Retrieve an API key',
  description: 'One key of this workspace and mode, without the key itself.',
  schema: { params: ApiKeyParams, response: { 200: ApiKey } },
  handler: ({ params, principal, services }) => services.apiKeys.get(principal, params.id),
})
