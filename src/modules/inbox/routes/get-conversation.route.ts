import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, ConversationIdParams, VersionHeaders } from '../inbox.schemas.js'

export const getConversation = defineRoute({
  operationId: 'getConversation',
  method: 'GET',
  url: '/inbox/conversations/{id}',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'Get a conversation',
  schema: { params: ConversationIdParams, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found'],
  handler: async ({ params, principal, services, request }) => conversationForVersion(request, await services.inbox.conversations.get(principal, params.id)),
})
