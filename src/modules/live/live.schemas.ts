import { Type } from 'typebox'

export const EVENT_ID = '^evt_[0-9A-HJKMNP-TV-Z]{26}$'

export const StreamEventsQuery = Type.Object(
  {
    types: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        description:
          'Comma-separated event types to receive: exact (`message.created`), a prefix (`conversation.*`), `*` (all, the default) or `presence`. ' +
          'Only types the credential may read are ever sent; naming one it may not → 403.',
        examples: ['conversation.*,message.created,presence'],
      }),
    ),
    after: Type.Optional(Type.String({ pattern: EVENT_ID, description: 'Resume after this event id (the same as sending `Last-Event-ID`).' })),
  },
  { additionalProperties: false },
)

export const StreamReady = Type.Object(
  {
    object: Type.Literal('event_stream'),
    types: Type.Array(Type.String(), { description: "The event types this stream carries (after the credential's scopes)." }),
    resumed_after: Type.Union([Type.String(), Type.Null()], { description: 'The event id the stream resumed after, or null for a new stream.' }),
    bus: Type.Union([Type.Literal('postgres'), Type.Literal('redis'), Type.Literal('cluster'), Type.Literal('none')], {
      description: 'How this process hears of events committed elsewhere (docs/live.md): `none` polls only.',
    }),
  },
  { $id: 'EventStreamReady', additionalProperties: false },
)

export const StoredEvent = Type.Object(
  {
    id: Type.String({ examples: ['evt_01JD5Z0Q2W3E4R5T6Y7U8I9O0P'] }),
    type: Type.String({ examples: ['message.created'] }),
    created_at: Type.String({ format: 'date-time' }),
    workspace_id: Type.String(),
    livemode: Type.Boolean(),
    api_version: Type.String(),
    data: Type.Object({ object: Type.Unknown() }),
  },
  { $id: 'StreamedEvent', description: 'The event exactly as webhooks deliver it (the envelope); `data.object` per the event catalog.' },
)

export const PresenceState = Type.Union([Type.Literal('viewing'), Type.Literal('typing'), Type.Literal('idle')], { $id: 'PresenceState' })

export const Presence = Type.Object(
  {
    object: Type.Literal('presence'),
    conversation_id: Type.String(),
    actor: Type.Object({
      // `contact`: a customer typing in a channel's chat (the web chat widget); the others are the workspace's own.
      type: Type.Union([Type.Literal('member'), Type.Literal('api_key'), Type.Literal('oauth_app'), Type.Literal('contact')]),
      id: Type.String(),
      name: Type.Union([Type.String(), Type.Null()]),
    }),
    state: PresenceState,
    expires_at: Type.String({ format: 'date-time', description: 'Gone after this unless refreshed; `idle` means gone now.' }),
  },
  { $id: 'Presence', additionalProperties: false },
)

export const StreamEventData = Type.Union([StreamReady, StoredEvent, Presence], {
  $id: 'EventStreamData',
  description: '`ready`: an EventStreamReady; `event`: a StreamedEvent; `presence`: a Presence; `error`: a problem.',
})

export const PresenceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })
export const PresenceBody = Type.Object({ state: PresenceState }, { additionalProperties: false })
