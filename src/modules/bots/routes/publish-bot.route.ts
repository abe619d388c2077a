import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, IdParams, PublishBotBody } from '../bots.schemas.js'

export const publishBot = defineRoute({
  operationId: 'publishBot',
  method: 'POST',
  url: '/bots/{id}/publish',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Publish a bot version',
  description:
    'Makes a version live: `version_id`, else the latest version; a bot with no version yet gets its first one frozen from the ' +
    'draft. Draft edits made after the latest version are not published until a version freezes them (`POST /bots/{id}/versions`).',
  schema: { params: IdParams, body: PublishBotBody, response: { 200: Bot } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_archived'],
  handler: ({ params, body, principal, services }) => services.bots.versions.publish(principal, params.id, body ?? {}),
})
