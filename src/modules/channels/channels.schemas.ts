import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'
import { WebChat, WebChatInput, WebChatUpdate } from './web-chat/web-chat.schemas.js'
import { BusinessHoursSchema } from './business-hours/business-hours.schemas.js'
import { EmailInput, EmailSettings, EmailUpdate } from './email/email.schemas.js'
import { MESSAGING_SERVICE_SID, WhatsAppInput, WhatsAppSettings } from './providers/messaging.schemas.js'

const DateTime = Type.String({ format: 'date-time' })
const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })
const E164 = Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, e.g. +14155550123.', examples: ['+14155550123'] })

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })

export const CHANNEL_TYPES = ['sms', 'whatsapp', 'web_chat', 'email'] as const
/** The types that are a phone number (phone_number required). */
export const PHONE_CHANNEL_TYPES: readonly string[] = ['sms', 'whatsapp']
const ChannelType = oneOf(CHANNEL_TYPES, {
  title: 'ChannelType',
  description: '`sms` or `whatsapp` (through Twilio Messaging, or the simulated provider); `web_chat` (the chat widget on your site, `web_chat` settings); `email` (an address, `email` settings).',
})
const ChannelProvider = oneOf(['simulated', 'twilio', 'widget', 'smtp'] as const, {
  title: 'ChannelProvider',
  description:
    "`twilio` (live mode only: Twilio Messaging with the account below) or `simulated` (offline: sends are recorded and reported delivered); `widget` for `web_chat` (the service's own chat widget, always); `smtp` for `email` (live mode only: replies through the channel's relay or EMAIL_RELAY_URL; `simulated` records them).",
})

const Credentials = Type.Object(
  {
    account_sid: Nullable(Type.String({ description: 'The Twilio AccountSid (AC…); null on the simulated provider.' })),
    auth_token_set: Type.Boolean({ description: 'Whether an auth token is stored (it is never shown).' }),
    base_url: Nullable(Type.String({ description: 'The Twilio API base URL.' })),
    messaging_service_sid: Nullable(Type.String({ description: 'The Twilio Messaging Service (MG…) replies are sent through instead of phone_number; null: from the number.' })),
  },
  { title: 'ChannelCredentials' },
)

export const Channel = Type.Object(
  {
    id: Type.String({ examples: ['chn_01JD0000000000000000000000'] }),
    object: Type.Literal('channel'),
    type: ChannelType,
    name: Type.String(),
    phone_number: Nullable({ ...E164, description: 'E.164: the number of an `sms` or `whatsapp` channel; null for other types.' }),
    bot_id: Nullable(Type.String({ description: 'The bot that answers customers first (bot_…), or null.' })),
    provider: ChannelProvider,
    credentials: Credentials,
    web_chat: Nullable(WebChat),
    business_hours: Nullable(BusinessHoursSchema),
    email: Nullable(EmailSettings),
    whatsapp: Nullable(WhatsAppSettings),
    webhooks: Nullable(
      Type.Object(
        {
          messages_url: Type.String({ description: 'Twilio\'s "A message comes in" webhook (POST) for the number or Messaging Service.' }),
          status_url: Type.String({ description: 'The status callback given with every message sent.' }),
        },
        {
          title: 'ChannelWebhooks',
          description:
            'Derived from PUBLIC_URL; configure them at Twilio (read-only). Null for `web_chat` and `email` channels, which Twilio never calls (their inbound URLs are under `web_chat` and `email`).',
        },
      ),
    ),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Channel' },
)
export type ChannelT = Static<typeof Channel>
export const ChannelList = Page(Channel, 'Channel')

export const ListChannelsQuery = Type.Object({ ...PageQuery, type: Type.Optional(ChannelType) }, { additionalProperties: false })
export type ListChannelsQueryT = Static<typeof ListChannelsQuery>

const CredentialsInput = Type.Object(
  {
    account_sid: Type.String({ pattern: '^AC[0-9a-fA-F]{32}$', description: 'The Twilio AccountSid.' }),
    auth_token: Type.Optional(Type.String({ minLength: 16, maxLength: 128, description: 'Write-only; required the first time, kept when left out for the same account.' })),
    base_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 300, description: 'Default https://api.twilio.com.' })),
    messaging_service_sid: Type.Optional(
      Nullable(
        Type.String({
          pattern: MESSAGING_SERVICE_SID,
          description: 'Send through this Messaging Service (MG…) instead of phone_number (its sender pool, with the number in it); null: from the number. Kept when left out.',
        }),
      ),
    ),
  },
  { additionalProperties: false, title: 'ChannelCredentialsInput' },
)

export const CreateChannelBody = Type.Object(
  {
    type: ChannelType,
    name: Type.String({ minLength: 1, maxLength: 100 }),
    phone_number: Type.Optional({ ...E164, description: 'E.164: required for `sms` and `whatsapp`, not taken by other types.' }),
    web_chat: Type.Optional(WebChatInput),
    business_hours: Type.Optional(Nullable(BusinessHoursSchema)),
    email: Type.Optional(EmailInput),
    whatsapp: Type.Optional(WhatsAppInput),
    bot_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    provider: Type.Optional(ChannelProvider),
    credentials: Type.Optional(CredentialsInput),
  },
  { additionalProperties: false },
)
export type CreateChannelBodyT = Static<typeof CreateChannelBody>

export const UpdateChannelBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    bot_id: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
    credentials: Type.Optional(CredentialsInput),
    web_chat: Type.Optional(WebChatUpdate),
    business_hours: Type.Optional(Nullable(BusinessHoursSchema)),
    email: Type.Optional(EmailUpdate),
    whatsapp: Type.Optional(WhatsAppInput),
  },
  { additionalProperties: false },
)
export type UpdateChannelBodyT = Static<typeof UpdateChannelBody>

export const DeletedChannel = Type.Object({ id: Type.String(), object: Type.Literal('channel'), deleted: Type.Literal(true) }, { $id: 'DeletedChannel' })
export type DeletedChannelT = Static<typeof DeletedChannel>

export const SimulateChannelMessageBody = Type.Object(
  {
    from: E164,
    body: Type.String({ maxLength: 1600, description: 'The text, as the customer wrote it (STOP / START act as on Twilio).' }),
    media_urls: Type.Optional(Type.Array(Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }), { maxItems: 10 })),
    message_sid: Type.Optional(Type.String({ pattern: '^(SM|MM)[0-9a-f]{32}$', description: 'The provider message id; the same one again is the same message (a retry). Default: a new one.' })),
  },
  { additionalProperties: false },
)
export type SimulateChannelMessageBodyT = Static<typeof SimulateChannelMessageBody>

export const ChannelInbound = Type.Object(
  {
    object: Type.Literal('channel_inbound'),
    channel_id: Type.String(),
    message_sid: Type.String(),
    duplicate: Type.Boolean({ description: 'True when this message_sid was received before: nothing new was written.' }),
    conversation_id: Nullable(Type.String()),
    message_id: Nullable(Type.String()),
  },
  { $id: 'ChannelInbound' },
)
export type ChannelInboundT = Static<typeof ChannelInbound>
