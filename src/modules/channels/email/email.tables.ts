import type { Mode } from '../../../kernel/tenant.js'

/** An email channel's settings (one row per channel of type `email`). */
export interface ChannelEmailsTable {
  channel_id: string
  workspace_id: string
  mode: Mode
  /** Lower-cased; unique across the service: the SMTP listener and the providers' webhooks route by it. */
  address: string
  from_name: string | null
  /** The channel's own relay; null host: the service's default relay (EMAIL_RELAY_URL). */
  relay_host: string | null
  relay_port: number | null
  relay_secure: number
  relay_user: string | null
  /** Sealed (kernel.secrets, context `<channel id>:relay_password`). */
  relay_password_sealed: string | null
  /** Sealed (context `<channel id>:webhook_password`): Postmark's and SendGrid's basic auth. */
  webhook_password_sealed: string | null
  /** Sealed (context `<channel id>:mailgun_signing_key`). */
  mailgun_key_sealed: string | null
  /** SendGrid's verification key (public: base64 DER) of a signed Inbound Parse; set: the signature is required. */
  sendgrid_parse_key: string | null
  /** SendGrid's Event Webhook verification key (public); set: delivery events are taken, signed. */
  sendgrid_events_key: string | null
}

/** A conversation an email channel talks to: where replies go, and how they thread. */
export interface ChannelEmailConversationsTable {
  conversation_id: string
  workspace_id: string
  mode: Mode
  channel_id: string
  contact_email: string
  /** The per-conversation reply address is `<local>+<reply_token>@<domain>`; unique. */
  reply_token: string
  subject: string
  /** The newest Message-ID of the thread (ours or theirs), for In-Reply-To. */
  last_header_id: string | null
  /** The thread's Message-IDs, space-separated, oldest first (at most the last 20), for References. */
  references_ids: string
}

/** Every Message-ID of a thread (received or sent), so that a reply's In-Reply-To / References find its conversation. */
export interface ChannelEmailThreadsTable {
  channel_id: string
  header_id: string
  workspace_id: string
  mode: Mode
  conversation_id: string
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    channel_emails: ChannelEmailsTable
    channel_email_conversations: ChannelEmailConversationsTable
    channel_email_threads: ChannelEmailThreadsTable
  }
}
