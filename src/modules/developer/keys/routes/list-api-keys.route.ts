import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ApiKeyList, ListApiKeysQuery } from '../keys.schemas.js'

export const listApiKeys = defineRoute({
  operationId: 'listApiKeys',
  method: 'GET',
  url: '/api-keys',
  module: 'developer',
  scope: 'admin',
  summary: 'List API keys',
  description:
    'The keys of this workspace in this mode (live keys on /v2, test keys on /sandbox/v2), newest first: prefix, scopes, when each was last used and whether it is revoked. Never the keys themselves.',
  schema: { querystring: ListApiKeysQuery, response: { 200: ApiKeyList } },
  handler: ({ query, principal, services }) => services.apiKeys.list(principal, query),
})
