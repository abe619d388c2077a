import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The channels module's error codes. */
export const CHANNELS_ERRORS = defineErrors('channels', {
  // A provider webhook (Twilio) whose X-Twilio-Signature does not verify with the channel's auth token, or for a channel we do not have.
  channel_signature_invalid: { status: 403, title: 'Channel signature invalid' },
  // createChannel with a phone number another channel of the workspace (same mode) already uses.
  channel_number_taken: { status: 409, title: 'Channel number taken' },
  // simulateChannelMessage on a channel whose provider is not `simulated` (its messages come from the provider).
  channel_not_simulated: { status: 409, title: 'Channel not simulated' },
  // createChannel / updateChannel with an email address another channel (any workspace) already receives: mail names one channel.
  channel_address_taken: { status: 409, title: 'Channel address taken' },
  // An email provider's inbound webhook without the channel's credentials (basic auth, Mailgun's signature), or for a channel we do not have.
  channel_webhook_unauthorized: { status: 401, title: 'Channel webhook unauthorized' },
  // A free-form reply on WhatsApp more than 24 hours after the customer's last message, and the channel names no template to send instead.
  whatsapp_window_closed: { status: 422, title: 'WhatsApp window closed' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof CHANNELS_ERRORS, ErrorSpec> {}
}
