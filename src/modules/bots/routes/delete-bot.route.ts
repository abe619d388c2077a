import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedBot, IdParams } from '../bots.schemas.js'

export const deleteBot = defineRoute({
  operationId: 'deleteBot',
  method: 'DELETE',
  url: '/bots/{id}',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Delete a bot',
  description:
    'Deletes the bot, its versions and tools; the conversations it took part in stay in the inbox. A published bot answers ' + 'customers, so it must be archived first (409 `bot_is_live`).',
  schema: { params: IdParams, response: { 200: DeletedBot } },
  errors: ['resource_not_found', 'bot_is_live'],
  handler: ({ params, principal, services }) => services.bots.bots.delete(principal, params.id),
})
