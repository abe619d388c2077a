import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotVersionList, IdParams, ListBotVersionsQuery } from '../bots.schemas.js'

export const listBotVersions = defineRoute({
  operationId: 'listBotVersions',
  method: 'GET',
  url: '/bots/{id}/versions',
  module: 'bots',
  scope: 'bots:read',
  summary: 'List bot versions',
  description: 'Newest first, each with its frozen configuration; `live` marks the one customers talk to.',
  schema: { params: IdParams, querystring: ListBotVersionsQuery, response: { 200: BotVersionList } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.bots.versions.list(principal, params.id, query),
})
