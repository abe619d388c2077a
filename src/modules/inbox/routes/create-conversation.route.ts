import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, CreateConversationBody, VersionHeaders } from '../inbox.schemas.js'

export const createConversation = defineRoute({
  operationId: 'createConversation',
  method: 'POST',
  url: '/inbox/conversations',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Create a conversation',
  description:
    'Every field is optional: channel defaults to `api`, status to `open`. `tags` name existing tags; `assignee_id` an ' +
    'active member; `message` adds a first message (inbound by default) in the same transaction. Honours Idempotency-Key.',
  schema: { body: CreateConversationBody, headers: VersionHeaders, response: { 201: Conversation } },
  errors: ['unknown_tag', 'assignee_not_member', 'invalid_message_author'],
  // One transaction and nothing outside it: the key is claimed by that transaction (kernel/http/idempotency.ts).
  idempotency: 'in-transaction',
  handler: async ({ body, principal, services, request }) => conversationForVersion(request, await services.inbox.conversations.create(principal, body)),
})
