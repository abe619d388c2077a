import type { Kernel } from '../../kernel/kernel.js'
import type { BusinessHoursT } from './business-hours/business-hours.schemas.js'
import type { ChannelT } from './channels.schemas.js'
import type { ChannelsTable } from './channels.tables.js'
import { webChatView } from './web-chat/web-chat.settings.js'
import { emailView } from './email/email.settings.js'
import type { ChannelEmailsTable } from './email/email.tables.js'
import { whatsappView } from './providers/whatsapp-window.js'

/** Where Twilio posts a channel's messages and statuses: under PUBLIC_URL, outside the API's base URLs. */
export const channelWebhooks = (k: Kernel, id: string) => ({
  messages_url: `${k.config.publicUrl}/channels/${id}/twilio/messages`,
  status_url: `${k.config.publicUrl}/channels/${id}/twilio/status`,
})

/**
 * `identitySecret`: a web chat channel's new identity secret, shown only in the answer that made it;
 * `email`: an email channel's settings row (channel_emails).
 */
export function channelView(k: Kernel, row: ChannelsTable, identitySecret: string | null = null, email: ChannelEmailsTable | null = null): ChannelT {
  return {
    id: row.id,
    object: 'channel',
    type: row.type,
    name: row.name,
    phone_number: row.phone_number,
    bot_id: row.bot_id,
    provider: row.provider,
    credentials: { account_sid: row.account_sid, auth_token_set: row.auth_token_sealed !== null, base_url: row.base_url, messaging_service_sid: row.messaging_service_sid ?? null },
    web_chat: webChatView(k, row, identitySecret),
    business_hours: row.business_hours ? (JSON.parse(row.business_hours) as BusinessHoursT) : null,
    email: email ? emailView(k, email) : null,
    whatsapp: whatsappView(row),
    // Only Twilio's channel types are called at these URLs; a web chat or e-mail channel showing them misled operators.
    webhooks: row.type === 'sms' || row.type === 'whatsapp' ? channelWebhooks(k, row.id) : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
