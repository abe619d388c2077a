import { defineRoute } from '../../../kernel/http/define-route.js'
import { ApiRoot } from '../health.schemas.js'

export const getApiRoot = defineRoute({
  operationId: 'getApiRoot',
  method: 'GET',
  url: '/',
  module: 'health',
  scope: 'read',
  summary: 'API root: version and links to both base URLs, the OpenAPI document, the reference and health',
  schema: { response: { 200: ApiRoot } },
  handler: ({ principal, services }) => services.health.root(principal.mode),
})
