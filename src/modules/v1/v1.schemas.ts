import { Type, type Static } from 'typebox'
import { Channel } from '../inbox/inbox.schemas.js'

/**
 * v1 bodies, as version 1 accepted them (docs/migration-v1.md). They are validated here, then mapped onto
 * the v2 services; nothing of v1 is in the OpenAPI document.
 */
export const V1ChatBody = Type.Object(
  {
    /** The contact's id in the caller's system (v2: contact.external_id). */
    user_id: Type.String({ minLength: 1, maxLength: 200 }),
    message: Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' }),
    /** v1 had one running chat per user and channel; a given chat_id pins it. */
    chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    channel: Type.Optional(Channel),
    /** `user` (inbound, the default) or `agent` (outbound). */
    sender: Type.Optional(Type.Union([Type.Literal('user'), Type.Literal('agent')])),
  },
  { additionalProperties: false },
)
export type V1ChatBodyT = Static<typeof V1ChatBody>

export const V1ChatsQuery = Type.Object(
  {
    offset: Type.Optional(Type.Integer({ minimum: 0 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
)
export type V1ChatsQueryT = Static<typeof V1ChatsQuery>

export const V1BotRunBody = Type.Object(
  {
    /** An agent id (agt_…): v1's bots that ran tasks are v2's agents. */
    bot_id: Type.String({ minLength: 1, maxLength: 64 }),
    input: Type.Union([Type.String({ minLength: 1, maxLength: 20_000 }), Type.Object({}, { additionalProperties: true })]),
    chat_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  },
  { additionalProperties: false },
)
export type V1BotRunBodyT = Static<typeof V1BotRunBody>
