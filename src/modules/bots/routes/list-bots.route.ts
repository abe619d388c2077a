import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotList, ListBotsQuery } from '../bots.schemas.js'

export const listBots = defineRoute({
  operationId: 'listBots',
  method: 'GET',
  url: '/bots',
  module: 'bots',
  scope: 'bots:read',
  summary: 'List bots',
  description: 'Newest first; `status` filters draft, published or archived bots.',
  schema: { querystring: ListBotsQuery, response: { 200: BotList } },
  handler: ({ query, principal, services }) => services.bots.bots.list(principal, query),
})
