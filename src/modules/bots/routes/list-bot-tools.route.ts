import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotToolList, IdParams, ListBotToolsQuery } from '../bots.schemas.js'

export const listBotTools = defineRoute({
  operationId: 'listBotTools',
  method: 'GET',
  url: '/bots/{id}/tools',
  module: 'bots',
  scope: 'bots:read',
  summary: 'List bot tools',
  description: "The draft's tools in the order they were attached. Header values and signing secrets are never shown.",
  schema: { params: IdParams, querystring: ListBotToolsQuery, response: { 200: BotToolList } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.bots.tools.list(principal, params.id, query),
})
