import type { Config } from '../../../config.js'
import { SCOPES } from '../../../kernel/auth/scopes.js'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { StreamEventData, StreamEventsQuery } from '../live.schemas.js'

export const streamEvents = defineRoute({
  operationId: 'streamEvents',
  method: 'GET',
  url: '/events/stream',
  module: 'live',
  scope: 'read',
  // Any read scope admits the stream; each event then needs its own module's (a conversations:read key gets conversations).
  anyScope: SCOPES.anyRead,
  summary: "Follow the workspace's events live (Server-Sent Events)",
  description:
    "The workspace's events as they are committed, on any node: `ready` first, then each `event` — the envelope webhooks deliver — and " +
    "ephemeral `presence` (who is viewing or typing in a conversation; never stored, never replayed). Each `event`'s SSE id is the " +
    'event id: reconnecting with `Last-Event-ID` (EventSource does) or `after` resumes after it on any node, from the stored events. ' +
    'Delivery is at least once (a resume looks back a moment for late commits): dedupe by `id`. Only the types the credential may ' +
    "read are sent (their module's read scope and, for a member, role), re-checked every 30 s: a revoked credential ends the stream " +
    'with an `error` event. Extension of the API, like webhooks; see docs/live.md.',
  sse: {
    heartbeatMs: (config: Config) => config.sseHeartbeatMs,
    ownIds: true,
    events: {
      ready: 'an EventStreamReady: the stream is open (its id is where it starts, for a resume)',
      event: 'a StreamedEvent: one stored event, as webhooks deliver it',
      presence: 'a Presence: someone is viewing, typing in, or left a conversation (ephemeral)',
    },
  },
  schema: { querystring: StreamEventsQuery, response: { 200: StreamEventData } },
  errors: ['insufficient_scope'],
  handler: async ({ principal, query, services, stream, reauthenticate }) => {
    await services.live.stream(principal, query, stream, reauthenticate)
  },
})
