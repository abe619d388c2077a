import { defineRoute } from '../../../kernel/http/define-route.js'
import { ConversationIdParams, MAX_MESSAGE_LENGTH, Message, SendMessageBody } from '../inbox.schemas.js'

export const sendMessage = defineRoute({
  operationId: 'sendMessage',
  method: 'POST',
  url: '/inbox/conversations/{id}/messages',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Add a message or a private note to a conversation',
  description:
    `\`content\` is required: 1–${MAX_MESSAGE_LENGTH} characters, not only whitespace. Direction defaults to outbound ` +
    '(to the contact); an inbound message (from the contact) reopens a resolved conversation and updates the lead score. ' +
    'With Idempotency-Key, a repeat with the same body returns the first response (`Idempotent-Replayed: true`) and ' +
    'creates nothing; a repeat with a different body answers 409 `idempotency_key_reused`.',
  schema: { params: ConversationIdParams, body: SendMessageBody, response: { 201: Message } },
  errors: ['resource_not_found', 'invalid_message_author', 'assignee_not_member', 'idempotency_key_reused'],
  // One transaction and nothing outside it: the key is claimed by that transaction (kernel/http/idempotency.ts).
  idempotency: 'in-transaction',
  handler: ({ params, body, principal, services }) => services.inbox.messages.send(principal, params.id, body),
})
