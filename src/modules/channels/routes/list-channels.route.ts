import { defineRoute } from '../../../kernel/http/define-route.js'
import { ChannelList, ListChannelsQuery } from '../channels.schemas.js'

export const listChannels = defineRoute({
  operationId: 'listChannels',
  method: 'GET',
  url: '/channels',
  module: 'channels',
  scope: 'read',
  summary: 'List channels',
  description: 'Newest first; filter by `type`.',
  schema: { querystring: ListChannelsQuery, response: { 200: ChannelList } },
  handler: ({ query, principal, services }) => services.channels.channels.list(principal, query),
})
