import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotTestConversation, TestConversationParams } from '../bots.schemas.js'

export const getBotTestConversation = defineRoute({
  operationId: 'getBotTestConversation',
  method: 'GET',
  url: '/bots/{id}/test-conversations/{conversation_id}',
  module: 'bots',
  scope: 'bots:read',
  summary: 'Get a test conversation of a bot',
  description:
    'A test exchange (sendBotMessage with `test`, or with `version_id`) as the tester had it: each message and the reply, oldest first. ' +
    'Test exchanges are kept with the bot only — never in the inbox, events, webhooks or integrations — and go when the bot is deleted.',
  schema: { params: TestConversationParams, response: { 200: BotTestConversation } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.bots.replies.readTest(principal, params.id, params.conversation_id),
})
