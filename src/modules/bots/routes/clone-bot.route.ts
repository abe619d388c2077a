import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, CloneBotBody, IdParams } from '../bots.schemas.js'

export const cloneBot = defineRoute({
  operationId: 'cloneBot',
  method: 'POST',
  url: '/bots/{id}/clone',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Clone a bot',
  description:
    'A new draft bot with the configuration, guardrails, knowledge links and tools of the draft (or of `version_id`): new ids, no ' +
    'versions, no history. Tools keep their headers and signing secret.',
  schema: { params: IdParams, body: CloneBotBody, response: { 201: Bot } },
  errors: ['resource_not_found', 'invalid_reference'],
  handler: ({ params, body, principal, services }) => services.bots.clone.clone(principal, params.id, body ?? {}),
})
