import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedChannel, IdParams } from '../channels.schemas.js'

export const deleteChannel = defineRoute({
  operationId: 'deleteChannel',
  method: 'DELETE',
  url: '/channels/{id}',
  module: 'channels',
  scope: 'write',
  summary: 'Delete a channel',
  description:
    "Removes the channel and its customers' opt-outs. Its conversations stay in the inbox; replies in them are no longer sent (their " +
    "delivery fails with `channel_deleted`), and the provider's webhooks for it are refused from now on.",
  schema: { params: IdParams, response: { 200: DeletedChannel } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.channels.channels.delete(principal, params.id),
})
