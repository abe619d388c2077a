import { defineRoute } from '../../../kernel/http/define-route.js'
import { Channel, CreateChannelBody } from '../channels.schemas.js'

export const createChannel = defineRoute({
  operationId: 'createChannel',
  method: 'POST',
  url: '/channels',
  module: 'channels',
  scope: 'write',
  summary: 'Create a channel',
  description:
    'An SMS or WhatsApp number through which customers reach the inbox. `provider` `twilio` (live mode only) takes the Twilio account in ' +
    '`credentials` (the auth token is sealed at rest and never shown); `simulated` (the default without credentials, and the only one in the ' +
    'sandbox) sends nothing outside and reports every message delivered. Configure the returned `webhooks.messages_url` at Twilio as the ' +
    'number\'s "A message comes in" webhook. `bot_id` names a published bot. 409 `channel_number_taken` when another channel of the same type has the number. ' +
    'Type `web_chat` is the chat widget for your site (provider `widget`, no phone number): `web_chat` sets its allowed origins, theme, locale, pre-chat ' +
    'e-mail and identity verification; the answer carries the public key and the script-tag snippet, and the identity secret once (docs/channels.md, "Web chat").',
  schema: { body: CreateChannelBody, response: { 201: Channel } },
  errors: ['invalid_reference', 'bot_not_published', 'channel_number_taken'],
  handler: ({ body, principal, services }) => services.channels.channels.create(principal, body),
})
