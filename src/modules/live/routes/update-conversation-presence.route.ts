import { defineRoute } from '../../../kernel/http/define-route.js'
import { Presence, PresenceBody, PresenceParams } from '../live.schemas.js'

export const updateConversationPresence = defineRoute({
  operationId: 'updateConversationPresence',
  method: 'POST',
  url: '/inbox/conversations/{id}/presence',
  module: 'live',
  // Viewing a conversation is reading it: a read-only member shows up too.
  scope: 'conversations:read',
  summary: 'Say you are viewing or typing in a conversation (presence)',
  description:
    "Sends a `presence` event to the workspace's event streams on every node (GET /events/stream) and answers it; nothing is stored. " +
    '`viewing` and `typing` last 30 s (`expires_at`): send again every ~10 s while it holds, and `idle` when leaving. The actor is the ' +
    'member behind the credential (with their name), else the API key or OAuth app.',
  schema: { params: PresenceParams, body: PresenceBody, response: { 200: Presence } },
  errors: ['resource_not_found'],
  handler: async ({ principal, params, body, services }) => services.live.presence(principal, params.id, body.state),
})
