import { Type, type Static } from 'typebox'
import { Nullable } from '../../../kernel/http/schemas.js'

// The web chat channel's settings (part of the Channel resource) and the widget's own public API.

export const WIDGET_LOCALES = ['en', 'de'] as const
const Locale = Type.Unsafe<(typeof WIDGET_LOCALES)[number]>({
  type: 'string',
  enum: [...WIDGET_LOCALES],
  description: 'The widget’s language when the visitor’s browser asks for none we have: `en` or `de`.',
})
const Position = Type.Unsafe<'bottom-right' | 'bottom-left'>({ type: 'string', enum: ['bottom-right', 'bottom-left'] })
/** An origin as browsers send it in `Origin`: scheme, host, optional port; no path. */
const Origin = Type.String({ pattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?$', maxLength: 200, examples: ['https://www.example.com'] })
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'The accent colour, `#rrggbb`.', examples: ['#1f6feb'] })

const Theme = Type.Object(
  {
    color: Color,
    position: Position,
    greeting: Nullable(Type.String({ maxLength: 300, description: 'The first line the visitor reads; null: the widget’s own, in its language.' })),
    avatar_url: Nullable(Type.String({ format: 'uri', pattern: '^https://', maxLength: 500, description: 'An https image shown beside the team’s messages.' })),
  },
  { title: 'WebChatTheme' },
)

/** Replies the visitor has not seen in the widget go by e-mail (docs/channels.md "Continued by e-mail"). */
const EmailFollowup = Type.Object(
  {
    email_channel_id: Type.String({
      maxLength: 64,
      description: 'An email channel of the workspace: the mail comes from its address through its relay, and the visitor’s answer to it lands in the same conversation.',
    }),
    after_minutes: Type.Integer({ minimum: 1, maximum: 10080, description: 'How long a reply waits to be seen in the widget before it goes by e-mail.' }),
    chat_url: Nullable(
      Type.String({ format: 'uri', pattern: '^https?://', maxLength: 500, description: 'The page with the chat, linked from the mail (opened with `#svc-chat`); null: the first allowed origin.' }),
    ),
  },
  { title: 'WebChatEmailFollowup', additionalProperties: false },
)
const EmailFollowupInput = Type.Object(
  { email_channel_id: EmailFollowup.properties.email_channel_id, after_minutes: EmailFollowup.properties.after_minutes, chat_url: Type.Optional(EmailFollowup.properties.chat_url) },
  { title: 'WebChatEmailFollowupInput', additionalProperties: false, description: 'Replies not seen in the widget in time go by e-mail to visitors who gave an address; null: never.' },
)

export const WebChat = Type.Object(
  {
    public_key: Type.String({ description: 'The channel’s public key (`wck_…`) for the script tag (`data-channel`): not a secret, it names the channel.', examples: ['wck_4f9c2d1a7b3e8f60a1b2c3d4'] }),
    allowed_origins: Type.Array(Origin, { description: 'The sites that may run the widget (checked against `Origin`); empty: none yet.' }),
    theme: Theme,
    locale: Locale,
    require_email: Type.Boolean({ description: 'The visitor gives an e-mail address before the first message (pre-chat capture).' }),
    identity_verification: Type.Boolean({
      description: 'Visitors named by your site (`user_id`) must carry `user_hash` = hex HMAC-SHA256 of the user id with the identity secret; an unsigned `user_id` is refused.',
    }),
    email_followup: Nullable(EmailFollowup),
    identity_secret_set: Type.Boolean({ description: 'Whether an identity secret exists (it is shown once, when made).' }),
    identity_secret: Type.Optional(Type.String({ description: 'Only in the answer that made it (create, or update with `rotate_identity_secret`): keep it on your server.' })),
    script_url: Type.String({ description: 'The widget script.' }),
    snippet: Type.String({ description: 'The tag to paste before `</body>`.' }),
  },
  { title: 'WebChatSettings' },
)
export type WebChatT = Static<typeof WebChat>

const ThemeInput = Type.Partial(
  Type.Object({
    color: Color,
    position: Position,
    greeting: Nullable(Type.String({ minLength: 1, maxLength: 300 })),
    avatar_url: Nullable(Type.String({ format: 'uri', pattern: '^https://', maxLength: 500 })),
  }),
  { additionalProperties: false, title: 'WebChatThemeInput' },
)

const inputFields = {
  allowed_origins: Type.Array(Origin, { maxItems: 20, uniqueItems: true }),
  theme: ThemeInput,
  locale: Locale,
  require_email: Type.Boolean(),
  identity_verification: Type.Boolean({ description: 'Turning it on makes the identity secret (shown once) if there is none.' }),
  email_followup: Nullable(EmailFollowupInput),
}

export const WebChatInput = Type.Partial(Type.Object(inputFields), { additionalProperties: false, title: 'WebChatInput', description: 'Only for type `web_chat`.' })
export type WebChatInputT = Static<typeof WebChatInput>

export const WebChatUpdate = Type.Partial(
  Type.Object({ ...inputFields, rotate_identity_secret: Type.Boolean({ description: 'true: a new identity secret replaces the old one at once (shown once in this answer).' }) }),
  { additionalProperties: false, title: 'WebChatUpdate' },
)
export type WebChatUpdateT = Static<typeof WebChatUpdate>

/** The settings as stored in `channels.widget_settings` (JSON); the key and the secret have their own columns. */
export interface WidgetSettings {
  allowed_origins: string[]
  theme: { color: string; position: 'bottom-right' | 'bottom-left'; greeting: string | null; avatar_url: string | null }
  locale: 'en' | 'de'
  require_email: boolean
  identity_verification: boolean
  email_followup: { email_channel_id: string; after_minutes: number; chat_url: string | null } | null
}

export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  allowed_origins: [],
  theme: { color: '#1f6feb', position: 'bottom-right', greeting: null, avatar_url: null },
  locale: 'en',
  require_email: false,
  identity_verification: false,
  email_followup: null,
}
