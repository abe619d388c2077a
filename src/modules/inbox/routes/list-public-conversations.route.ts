import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationListDescription, conversationListHandler, conversationListSchema } from './list-conversations.route.js'

/** The public listing: the same conversations, filters and pages as listConversations. */
export const listPublicConversations = defineRoute({
  operationId: 'listPublicConversations',
  method: 'GET',
  url: '/conversations',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'List conversations (public listing; same as GET /inbox/conversations)',
  description: `The public listing of the inbox's conversations: identical to listConversations. ${conversationListDescription}`,
  schema: conversationListSchema,
  errors: ['invalid_cursor'],
  handler: conversationListHandler,
})
