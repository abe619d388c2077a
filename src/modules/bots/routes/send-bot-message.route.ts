import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotReply, IdParams, SendBotMessageBody } from '../bots.schemas.js'

export const sendBotMessage = defineRoute({
  operationId: 'sendBotMessage',
  method: 'POST',
  url: '/bots/{id}/messages',
  module: 'bots',
  scope: 'bots:write',
  minRole: 'member', // talking to a bot is day-to-day; changing it is not
  summary: 'Send a message to a bot',
  description:
    'The published version (or `version_id`) answers from its knowledge, with citations, calling its tools when needed; ' +
    'guardrails apply to the message and the reply. Both are written to the inbox conversation (a new one unless ' +
    '`conversation_id` is given); when the bot is not sure it hands the conversation to a human. With an Idempotency-Key a ' +
    'retry replays the same reply.',
  schema: { params: IdParams, body: SendBotMessageBody, response: { 201: BotReply } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_not_published', 'bot_archived'],
  handler: ({ params, body, principal, services }) => services.bots.replies.send(principal, params.id, body),
})
