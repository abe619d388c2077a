import { Type, type Static } from 'typebox'
import { Nullable } from '../../../kernel/http/schemas.js'

export const MESSAGING_SERVICE_SID = '^MG[0-9a-fA-F]{32}$'
export const CONTENT_SID = '^HX[0-9a-fA-F]{32}$'

const Variables = Type.Record(Type.String({ pattern: '^[A-Za-z0-9_]{1,32}$' }), Type.String({ maxLength: 1024 }), {
  maxProperties: 20,
  description: 'Twilio ContentVariables: each placeholder of the template (`"1"`, or a name) and its value. `{message}` in a value becomes the reply\'s text, `{channel}` the channel\'s name.',
  examples: [{ '1': '{message}' }],
})

const Template = Type.Object(
  {
    content_sid: Type.String({ pattern: CONTENT_SID, description: "The approved template in Twilio's Content API (HX…)." }),
    variables: Type.Optional(Variables),
  },
  { additionalProperties: false, title: 'WhatsAppTemplate' },
)
export type WhatsAppTemplateT = Static<typeof Template>

export const WhatsAppSettings = Type.Object(
  {
    template: Nullable(Template),
  },
  {
    title: 'ChannelWhatsApp',
    description:
      "A WhatsApp channel's settings; null for other types. `template` is sent instead of a free-form reply outside WhatsApp's 24-hour customer-service window; null: such a reply is refused (422 `whatsapp_window_closed`).",
  },
)
export type WhatsAppSettingsT = Static<typeof WhatsAppSettings>

export const WhatsAppInput = Type.Object({ template: Type.Optional(Nullable(Template)) }, { additionalProperties: false, title: 'ChannelWhatsAppInput', description: 'WhatsApp channels only.' })
export type WhatsAppInputT = Static<typeof WhatsAppInput>
