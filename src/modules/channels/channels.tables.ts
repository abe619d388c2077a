import type { Mode } from '../../kernel/tenant.js'

export type ChannelType = 'sms' | 'whatsapp' | 'web_chat' | 'email'
export type ChannelProvider = 'simulated' | 'twilio' | 'widget' | 'smtp'
export type DeliveryStatus = 'queued' | 'sent' | 'delivered' | 'read' | 'failed' | 'undelivered'

export interface ChannelsTable {
  id: string
  workspace_id: string
  mode: Mode
  type: ChannelType
  name: string
  /** E.164: the business's number customers write to (sms, whatsapp); null for other types. */
  phone_number: string | null
  bot_id: string | null
  provider: ChannelProvider
  account_sid: string | null
  /** The provider's auth token, sealed (kernel.secrets, context `<channel id>:auth_token`); never shown. */
  auth_token_sealed: string | null
  /** https://api.twilio.com or a Twilio-compatible server (tests). */
  base_url: string | null
  /** Twilio: the Messaging Service (MG…) replies are sent through instead of `phone_number`; null: the number. */
  messaging_service_sid?: string | null
  /** whatsapp: JSON WhatsAppTemplate sent outside the 24-hour window (providers/whatsapp-window.ts); null: none. */
  whatsapp_template?: string | null
  /** JSON BusinessHours (business-hours.ts); null: always answered, no out-of-hours reply. */
  business_hours?: string | null
  /** web_chat: the widget's public key (`wck_…`, unique everywhere); null for other types. */
  widget_key?: string | null
  /** web_chat: JSON WidgetSettings (origins, theme, locale, pre-chat e-mail, identity verification). */
  widget_settings?: string | null
  /** web_chat: the identity-verification secret, sealed (context `<channel id>:identity_secret`). */
  widget_secret_sealed?: string | null
  created_at: string
  updated_at: string
}

/** A web chat visitor (`vis_…`): their channel_contacts row is keyed by this id instead of a phone number. */
export interface ChannelWebVisitorsTable {
  id: string
  channel_id: string
  workspace_id: string
  mode: Mode
  /** The host site's user id, set only when verified by its HMAC (or when verification is off). */
  user_id: string | null
  /** Given in the pre-chat form. */
  email: string | null
  name: string | null
  created_at: string
  last_seen_at: string
}

/**
 * One customer of a channel: the conversation their next message continues, and their opt-out.
 * `contact_phone` is their address on the channel: an E.164 number, or a web chat visitor's id.
 */
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
  /** When the customer last wrote (WhatsApp's 24-hour window); null on rows older than the column. */
  last_inbound_at?: string | null
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
  /** When the out-of-hours reply last went out here (once per closed period). */
  out_of_hours_reply_at?: string | null
}

/** Every provider message received (unique per channel and MessageSid): a retried webhook finds it. */
export interface ChannelReceiptsTable {
  channel_id: string
  provider_sid: string
  workspace_id: string
  mode: Mode
  message_id: string
  /** The customer's number (or visitor id): erasure by phone finds their stored media; null once erased, and on older rows. */
  contact_phone?: string | null
  /** The bot's answer to this message (`pending` while it is written); null: none (yet). */
  bot_reply_id: string | null
  received_at: string
  /**
   * The blob folder of the media stored for it (Twilio): `''` when none was, null on rows older than the
   * column (their media, if any, are under the folder derived from channel and sid: twilio-media.ts).
   */
  media_folder?: string | null
  /** The conversation its message went to; null until the message is written, and on rows older than the column. */
  conversation_id?: string | null
}

/**
 * Media fetched from Twilio for a message not committed yet, written before the fetch: the message's
 * transaction deletes the row (claims the folder); a row left behind (the transaction failed, the process
 * died) is the media sweep's to delete with its blobs (providers/twilio-media-sweep.job.ts).
 */
export interface ChannelMediaPendingTable {
  /** Random per attempt: no other attempt (a retry of the same MessageSid) writes into it. */
  folder: string
  workspace_id: string
  mode: Mode
  channel_id: string
  provider_sid: string
  /** The customer's number: an erasure reaches media of theirs not linked to a message. */
  contact_phone: string
  created_at: string
  /** Set when the sweep took the row: the message's transaction can no longer claim it. */
  swept_at: string | null
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
    channel_web_visitors: ChannelWebVisitorsTable
    channel_media_pending: ChannelMediaPendingTable
  }
}
