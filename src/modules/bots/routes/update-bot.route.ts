import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, IdParams, UpdateBotBody } from '../bots.schemas.js'

export const updateBot = defineRoute({
  operationId: 'updateBot',
  method: 'PATCH',
  url: '/bots/{id}',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Update a bot',
  description:
    'Edits the draft: customers keep talking to the published version until the next publish. `archived: true` stops the bot ' +
    'answering (versions and history stay); `archived: false` brings it back.',
  schema: { params: IdParams, body: UpdateBotBody, response: { 200: Bot } },
  errors: ['resource_not_found', 'unknown_knowledge_base', 'assignee_not_member', 'unknown_tag'],
  handler: ({ params, body, principal, services }) => services.bots.bots.update(principal, params.id, body),
})
