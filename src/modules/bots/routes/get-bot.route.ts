import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, IdParams } from '../bots.schemas.js'

export const getBot = defineRoute({
  operationId: 'getBot',
  method: 'GET',
  url: '/bots/{id}',
  module: 'bots',
  scope: 'bots:read',
  summary: 'Get a bot',
  description: 'The draft configuration, the status and the live version; `has_unpublished_changes` says whether the draft differs from it.',
  schema: { params: IdParams, response: { 200: Bot } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.bots.bots.get(principal, params.id),
})
