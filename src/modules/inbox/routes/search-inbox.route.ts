import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { pageForVersion } from '../inbox.api-version.js'
import { InboxSearchResult, SearchInboxQuery, VersionHeaders } from '../inbox.schemas.js'

export const searchInbox = defineRoute({
  operationId: 'searchInbox',
  method: 'GET',
  url: '/inbox/search',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'Search conversations and messages (full text)',
  description:
    'Finds `q` (every word; the last one also as a prefix; letters and digits, any language, case-insensitive) in ' +
    'subjects, contact names and e-mail addresses, and the content of messages and notes. One result per match, newest ' +
    'match first (a conversation whose messages match several times appears once per message): `conversation`, the ' +
    'matching `message` (null for a subject or contact match) and a `snippet`, HTML-escaped with the matching words ' +
    'in `<mark>`. Cursor pages as every list; the cursor is bound to the query.',
  schema: { querystring: SearchInboxQuery, headers: VersionHeaders, response: { 200: Page(InboxSearchResult, 'InboxSearchResult') } },
  errors: ['invalid_cursor'],
  handler: async ({ query, principal, services, request }) => {
    const page = await services.inbox.working.search(principal, query)
    const conversations = pageForVersion(request, { ...page, data: page.data.map((r) => r.conversation) })
    return { ...page, data: page.data.map((r, i) => ({ ...r, conversation: conversations.data[i] })) }
  },
})
