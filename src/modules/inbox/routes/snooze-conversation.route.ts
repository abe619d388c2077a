import { defineRoute } from '../../../kernel/http/define-route.js'
import { conversationForVersion } from '../inbox.api-version.js'
import { Conversation, ConversationIdParams, SnoozeConversationBody, VersionHeaders } from '../inbox.schemas.js'

export const snoozeConversation = defineRoute({
  operationId: 'snoozeConversation',
  method: 'POST',
  url: '/inbox/conversations/{id}/snooze',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Snooze a conversation until a time',
  description:
    'Sets status `snoozed` and `snoozed_until` (`until`: RFC 3339, in the future, at most a year ahead) and emits ' +
    '`conversation.updated`. At `until` a durable job opens it again (`conversation.updated`), unless something woke it ' +
    'first (an inbound message wakes it at once) or it was snoozed again. A resolved conversation must be reopened ' +
    'first (409 `invalid_status_transition`).',
  schema: { params: ConversationIdParams, body: SnoozeConversationBody, headers: VersionHeaders, response: { 200: Conversation } },
  errors: ['resource_not_found', 'invalid_status_transition'],
  handler: async ({ params, body, principal, services, request }) => conversationForVersion(request, await services.inbox.working.snooze(principal, params.id, body.until)),
})
