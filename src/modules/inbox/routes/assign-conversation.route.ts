import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { AssignConversationBody, Conversation, ConversationIdParams, VersionHeaders } from '../inbox.schemas.js'

export const assignConversation = defineRoute({
  operationId: 'assignConversation',
  method: 'POST',
  url: '/inbox/conversations/{id}/assign',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Assign a conversation to a member, or unassign it',
  description: '`assignee_id` must be an active member of the workspace (else 422 `assignee_not_member`); null unassigns. Assigning to the current assignee changes nothing.',
  schema: { params: ConversationIdParams, body: AssignConversationBody, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found', 'assignee_not_member'],
  handler: async ({ params, body, principal, services, request }) => conversationForVersion(request, await services.inbox.conversations.assign(principal, params.id, body.assignee_id)),
})
