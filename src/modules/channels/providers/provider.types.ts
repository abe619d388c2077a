import type { DeliveryStatus } from '../channels.tables.js'

// What the channels module needs from a messaging provider. The simulated provider (default, and the only
// one in the sandbox) records sends in the database and reports them delivered; the Twilio adapter speaks
// Twilio Messaging's REST wire format.

export interface OutboundText {
  /** The channel's number, `whatsapp:`-prefixed for WhatsApp by the adapter. */
  from: string
  to: string
  body: string
  /** Public URLs of media to attach (MMS, WhatsApp media). */
  mediaUrls: string[]
  /** Where the provider reports the message's progress. */
  statusCallback: string
  /** Twilio: send through this Messaging Service (MG…) instead of `from`. */
  messagingServiceSid?: string | null
  /** An approved WhatsApp template (Twilio Content API) sent instead of `body` and `mediaUrls`: outside the 24-hour window. */
  template?: { contentSid: string; variables: Record<string, string> } | null
}

export interface SentText {
  /** The provider's message id (Twilio SM…/MM…). */
  sid: string
  status: DeliveryStatus
}

export interface MessagingProvider {
  send(text: OutboundText): Promise<SentText>
}

/** Twilio's message statuses as ours (accepted, scheduled, sending count as queued; WhatsApp's read receipt is read). */
export function deliveryStatusOf(twilio: string): DeliveryStatus | null {
  switch (twilio) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return 'queued'
    case 'sent':
      return 'sent'
    case 'delivered':
      return 'delivered'
    case 'read':
      return 'read'
    case 'failed':
    case 'canceled':
      return 'failed'
    case 'undelivered':
      return 'undelivered'
    default:
      return null
  }
}
