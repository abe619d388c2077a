import { defineRoute, type HandlerContext } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import type { Principal } from '../../../kernel/tenant.js'
import { pageForVersion } from '../inbox.api-version.js'
import { Conversation, ListConversationsQuery, VersionHeaders } from '../inbox.schemas.js'

const conversationListSchema = {
  querystring: ListConversationsQuery,
  headers: VersionHeaders,
  response: { 200: Page(Conversation, 'Conversation') },
}

const conversationListHandler = async ({ query, principal, services, request }: HandlerContext<typeof conversationListSchema, Principal>) =>
  pageForVersion(request, await services.inbox.conversations.list(principal, query))

const conversationListDescription =
  'Newest first, with cursor pagination. Filters: `status`, `assignee` (a member id or `unassigned`), `tag` (name, ' +
  'case-insensitive), `channel`, `updated_after` (RFC 3339); an invalid value answers 422. A cursor is bound to the ' +
  'filters it was issued for. Send `Svc-Api-Version: 2.3.4` (any version before 2.4.0) to receive `lead_score` as a plain number.'

export const listConversations = defineRoute({
  operationId: 'listConversations',
  method: 'GET',
  url: '/inbox/conversations',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'List conversations, newest first, with filters',
  description: conversationListDescription,
  schema: conversationListSchema,
  errors: ['invalid_cursor'],
  handler: conversationListHandler,
})
