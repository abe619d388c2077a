import type { Mode } from '../../kernel/tenant.js'

export type ChannelType = 'sms' | 'whatsapp'
export type ChannelProvider = 'simulated' | 'twilio'
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'failed' | 'undelivered'

export interface ChannelsTable {
  id: string
  workspace_id: string
  mode: Mode
  type: ChannelType
  name: string
  /** E.164: the business's number customers write to. */
  phone_number: string
  bot_id: string | null
  provider: ChannelProvider
  account_sid: string | null
  /** The provider's auth token, sealed (kernel.secrets, context `<channel id>:auth_token`); never shown. */
  auth_token_sealed: string | null
  /** https://api.twilio.com or a Twilio-compatible server (tests). */
  base_url: string | null
  created_at: string
  updated_at: string
}

/** One customer of a channel: the conversation their next message continues, and their opt-out. */
export interface ChannelContactsTable {
  channel_id: string
  workspace_id: string
  mode: Mode
  /** E.164 of the customer. */
  contact_phone: string
  conversation_id: string | null
  /** 1 after STOP (or Twilio's OptOutType STOP) until START. */
  opted_out: number
  opted_out_at: string | null
  updated_at: string
}

/** Which channel and customer an inbox conversation talks to: replies in it go out there. */
export interface ChannelConversationsTable {
  conversation_id: string
  workspace_id: string
  mode: Mode
  channel_id: string
  contact_phone: string
  /** `active` while the channel's bot answers there; `handed_off` once its rules gave it to a person. */
  bot_state: 'active' | 'handed_off'
}

/** Every provider message received (unique per channel and MessageSid): a retried webhook finds it. */
export interface ChannelReceiptsTable {
  channel_id: string
  provider_sid: string
  workspace_id: string
  mode: Mode
  message_id: string
  /** The bot's answer to this message (`pending` while it is written); null: none (yet). */
  bot_reply_id: string | null
  received_at: string
}

/** One outbound inbox message sent through a channel. */
export interface ChannelDeliveriesTable {
  message_id: string
  workspace_id: string
  mode: Mode
  channel_id: string
  to_phone: string
  status: DeliveryStatus
  /** Twilio's SM… sid once known; a send never runs again once it is set. */
  provider_sid: string | null
  error_code: string | null
  error_message: string | null
  attempts: number
  created_at: string
  updated_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    channels: ChannelsTable
    channel_contacts: ChannelContactsTable
    channel_conversations: ChannelConversationsTable
    channel_receipts: ChannelReceiptsTable
    channel_deliveries: ChannelDeliveriesTable
  }
}
