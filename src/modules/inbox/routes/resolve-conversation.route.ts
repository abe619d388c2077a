import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, ConversationIdParams, VersionHeaders } from '../inbox.schemas.js'

export const resolveConversation = defineRoute({
  operationId: 'resolveConversation',
  method: 'POST',
  url: '/inbox/conversations/{id}/resolve',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Resolve a conversation',
  description:
    'Sets status `resolved` and `resolved_at`, from any other status. Resolving a resolved conversation returns it ' +
    'unchanged (the first resolved_at, no new event). An inbound message or status `open` reopens it.',
  schema: { params: ConversationIdParams, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found'],
  handler: async ({ params, principal, services, request }) => conversationForVersion(request, await services.inbox.conversations.resolve(principal, params.id)),
})
