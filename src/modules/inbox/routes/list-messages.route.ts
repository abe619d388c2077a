import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { ConversationIdParams, ListMessagesQuery, Message } from '../inbox.schemas.js'

export const listMessages = defineRoute({
  operationId: 'listMessages',
  method: 'GET',
  url: '/inbox/conversations/{id}/messages',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'List the messages and private notes of a conversation',
  description: '`order=desc` (default) pages newest first; `order=asc` oldest first, like a transcript. A cursor keeps the order it was issued for.',
  schema: { params: ConversationIdParams, querystring: ListMessagesQuery, response: { 200: Page(Message, 'Message') } },
  errors: ['resource_not_found', 'invalid_cursor'],
  handler: ({ params, query, principal, services }) => services.inbox.messages.list(principal, params.id, query),
})
