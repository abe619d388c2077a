import { defineRoute } from '../../../kernel/http/define-route.js'
import { ChannelInbound, IdParams, SimulateChannelMessageBody } from '../channels.schemas.js'

export const simulateChannelMessage = defineRoute({
  operationId: 'simulateChannelMessage',
  method: 'POST',
  url: '/channels/{id}/simulated-messages',
  module: 'channels',
  scope: 'write',
  summary: 'Simulate a customer message',
  description:
    "For a channel on the `simulated` provider: a customer's message arrives as a provider webhook would bring it, through the same path " +
    '(threading, STOP/START, idempotency by `message_sid`, the bot). 409 `channel_not_simulated` for a Twilio channel, whose messages come from Twilio.',
  schema: { params: IdParams, body: SimulateChannelMessageBody, response: { 200: ChannelInbound } },
  errors: ['resource_not_found', 'channel_not_simulated'],
  handler: ({ params, body, principal, services }) => services.channels.inbound.simulate(principal, params.id, body),
})
