import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { Channel, type ChannelT } from './channels.schemas.js'

const CHANNEL: ChannelT = {
  id: 'chn_01JD0000000000000000000000',
  object: 'channel',
  type: 'sms',
  name: 'Support SMS',
  phone_number: '+14155550123',
  bot_id: null,
  provider: 'twilio',
  credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token_set: true, base_url: 'https://api.twilio.com', messaging_service_sid: null },
  web_chat: null,
  email: null,
  whatsapp: null,
  business_hours: {
    timezone: 'Europe/Berlin',
    weekly: (['mon', 'tue', 'wed', 'thu', 'fri'] as const).map((day) => ({ day, open: '09:00', close: '17:00' })),
    closed_dates: ['2026-12-25'],
    out_of_hours_reply: 'Thanks for your message! Our team is back {next_open}.',
  },
  webhooks: {
    messages_url: 'https://api.example.com/channels/chn_01JD0000000000000000000000/twilio/messages',
    status_url: 'https://api.example.com/channels/chn_01JD0000000000000000000000/twilio/status',
  },
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:00.000Z',
}

/** Every event type of the channels module. */
export const CHANNELS_EVENTS = defineEvents(
  'channels',
  { scope: 'read' },
  {
    'channel.created': eventType({ description: 'A channel was created.', schema: Channel, example: CHANNEL }),
    'channel.updated': eventType({ description: 'A channel was renamed, got another bot or other credentials.', schema: Channel, example: { ...CHANNEL, name: 'Sales SMS' } }),
    'channel.deleted': eventType({ description: 'A channel was deleted; the payload is the channel as it was. Its conversations stay in the inbox.', schema: Channel, example: CHANNEL }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof CHANNELS_EVENTS> {}
}
