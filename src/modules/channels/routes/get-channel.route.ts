import { defineRoute } from '../../../kernel/http/define-route.js'
import { Channel, IdParams } from '../channels.schemas.js'

export const getChannel = defineRoute({
  operationId: 'getChannel',
  method: 'GET',
  url: '/channels/{id}',
  module: 'channels',
  scope: 'read',
  summary: 'Retrieve a channel',
  description: 'The channel, its provider (without the auth token) and the webhook URLs to configure at the provider.',
  schema: { params: IdParams, response: { 200: Channel } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.channels.channels.get(principal, params.id),
})
