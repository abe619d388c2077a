import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { ReplyTemplate, SimpleListQuery } from '../inbox.schemas.js'

export const listReplyTemplates = defineRoute({
  operationId: 'listReplyTemplates',
  method: 'GET',
  url: '/inbox/templates',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'List reply templates, newest first',
  schema: { querystring: SimpleListQuery, response: { 200: Page(ReplyTemplate, 'ReplyTemplate') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.inbox.replyTemplates.list(principal, query),
})
