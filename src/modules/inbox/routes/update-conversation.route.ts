import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, ConversationIdParams, UpdateConversationBody, VersionHeaders } from '../inbox.schemas.js'

export const updateConversation = defineRoute({
  operationId: 'updateConversation',
  method: 'PATCH',
  url: '/inbox/conversations/{id}',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Change status, subject, contact, tags, metadata or the lead score',
  description:
    'Status follows the state machine (a resolved conversation can only be reopened: 409 `invalid_status_transition`). ' +
    '`lead_score` takes `{ score, factors }` or a plain number (the pre-2.4.0 form, until v3.0) as a manual override; ' +
    'null returns to the automatic score. `tags` replaces the set; `contact` fields merge (null clears one).',
  schema: { params: ConversationIdParams, body: UpdateConversationBody, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found', 'invalid_status_transition', 'unknown_tag'],
  handler: async ({ params, body, principal, services, request }) => conversationForVersion(request, await services.inbox.conversations.update(principal, params.id, body)),
})
