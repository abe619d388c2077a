import { defineRoute } from '../../../kernel/http/define-route.js'
import { Channel, IdParams, UpdateChannelBody } from '../channels.schemas.js'

export const updateChannel = defineRoute({
  operationId: 'updateChannel',
  method: 'PATCH',
  url: '/channels/{id}',
  module: 'channels',
  scope: 'write',
  summary: 'Update a channel',
  description:
    'Renames the channel, changes its bot (`bot_id` null: no bot) or its Twilio credentials (`auth_token` may be left out to keep the ' +
    "stored one for the same account). The type, number and provider stay: create another channel for another number. A `web_chat` channel's " +
    '`web_chat` settings change here; `rotate_identity_secret` makes a new identity secret, shown once in this answer (the old one stops verifying at once).',
  schema: { params: IdParams, body: UpdateChannelBody, response: { 200: Channel } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_not_published'],
  handler: ({ params, body, principal, services }) => services.channels.channels.update(principal, params.id, body),
})
