import { aliasRoute } from '../../../kernel/http/define-route.js'
import { listConversations } from './list-conversations.route.js'

/** The public listing: the same conversations, filters and pages as listConversations. */
export const listPublicConversations = aliasRoute(listConversations, {
  operationId: 'listPublicConversations',
  url: '/conversations',
  summary: 'List conversations (public listing; same as GET /inbox/conversations)',
})
