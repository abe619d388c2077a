import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, ConversationIdParams, MarkConversationReadBody, VersionHeaders } from '../inbox.schemas.js'

export const markConversationRead = defineRoute({
  operationId: 'markConversationRead',
  method: 'POST',
  url: '/inbox/conversations/{id}/read',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'Mark a conversation read (for the member)',
  description:
    'Moves the read mark of the member behind the credential (a dashboard session) to `message_id`, or to the newest ' +
    'message when the body is empty; `unread_count` then counts inbound messages after it. Read state is per member ' +
    'and emits no event. An API key acts for no member: 422 `member_credential_required`. A `message_id` not in the ' +
    'conversation: 422 `invalid_reference`.',
  schema: { params: ConversationIdParams, body: MarkConversationReadBody, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found', 'member_credential_required', 'invalid_reference'],
  handler: async ({ params, body, principal, services, request }) => conversationForVersion(request, await services.inbox.working.markRead(principal, params.id, body ?? {})),
})
