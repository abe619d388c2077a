import type { Config } from '../../../config.js'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotMessageStreamEvent, IdParams, SendBotMessageBody } from '../bots.schemas.js'

export const streamBotMessage = defineRoute({
  operationId: 'streamBotMessage',
  method: 'POST',
  url: '/bots/{id}/messages/stream',
  module: 'bots',
  scope: 'bots:write',
  minRole: 'member', // as sendBotMessage
  summary: 'Send a message to a bot, the reply streamed',
  description:
    'sendBotMessage (`POST /bots/{id}/messages`, same body and effects) as Server-Sent Events: `delta` events carry the reply as the ' +
    'engine writes it (an OpenAI-compatible engine token by token; the builtin engine in one piece), then `message` carries the reply ' +
    'object, whose `content` replaces the pieces (guardrails and hand-off rules judge the whole answer). docs/bots.md "Streaming".',
  sse: {
    heartbeatMs: (config: Config) => config.sseHeartbeatMs,
    events: {
      delta: '{text}: the next piece of the reply, provisional until `message`',
      message: '{reply}: the reply as POST /bots/{id}/messages answers it; its content is what was sent; the stream ends',
    },
  },
  schema: { params: IdParams, body: SendBotMessageBody, response: { 200: BotMessageStreamEvent } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_not_published', 'bot_archived'],
  handler: async ({ params, body, principal, services, stream }) => {
    const reply = await services.bots.replies.send(principal, params.id, body, { onDelta: (text) => stream.send('delta', { text }) })
    stream.send('message', { reply })
  },
})
