import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { InboxTag, SimpleListQuery } from '../inbox.schemas.js'

export const listInboxTags = defineRoute({
  operationId: 'listInboxTags',
  method: 'GET',
  url: '/inbox/tags',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'List conversation tags, newest first',
  schema: { querystring: SimpleListQuery, response: { 200: Page(InboxTag, 'InboxTag') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.inbox.tags.list(principal, query),
})
