import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { VoiceCall, VoiceNumber, VoiceRecording, VoiceTranscript, type VoiceCallT, type VoiceNumberT } from './voice.schemas.js'

const NUMBER: VoiceNumberT = {
  id: 'num_01JD0000000000000000000000',
  object: 'voice_number',
  phone_number: '+14155550123',
  country: 'US',
  area_code: '415',
  friendly_name: 'Support line',
  capabilities: { voice: true, sms: true },
  carrier: 'simulated',
  answer: { type: 'bot', id: 'bot_01JD0000000000000000000000', greeting: null },
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:00.000Z',
}
const CALL: VoiceCallT = {
  id: 'call_01JD0000000000000000000000',
  object: 'voice_call',
  direction: 'outbound',
  number_id: NUMBER.id,
  from: NUMBER.phone_number,
  to: '+15005550006',
  status: 'queued',
  carrier: 'simulated',
  answer: { type: 'bot', id: 'bot_01JD0000000000000000000000', greeting: 'Hi, this is Acme calling about your order.' },
  record: true,
  conversation_id: 'conv_01JD0000000000000000000000',
  queued_at: '2026-11-28T09:00:00.000Z',
  ringing_at: null,
  answered_at: null,
  ended_at: null,
  duration_seconds: null,
  end_reason: null,
  history: [{ status: 'queued', at: '2026-11-28T09:00:00.000Z' }],
  transfers: [],
  recording: { status: 'pending', url: 'https://api.example.com/v2/voice/calls/call_01JD0000000000000000000000/recording' },
  transcript: { status: 'pending', url: 'https://api.example.com/v2/voice/calls/call_01JD0000000000000000000000/transcript' },
  metadata: {},
  created_at: '2026-11-28T09:00:00.000Z',
  updated_at: '2026-11-28T09:00:00.000Z',
}
const at = (status: VoiceCallT['status'], extra: Partial<VoiceCallT> = {}): VoiceCallT => ({ ...CALL, status, ...extra })

/** Every event type of the voice module. */
export const VOICE_EVENTS = defineEvents(
  'voice',
  { scope: 'read' },
  {
    'voice_number.provisioned': eventType({ description: 'A number was provisioned for the workspace.', schema: VoiceNumber, example: NUMBER }),
    'voice_number.updated': eventType({
      description: 'A number was renamed or now answers with another bot, agent or greeting.',
      schema: VoiceNumber,
      example: { ...NUMBER, friendly_name: 'Sales line' },
    }),
    'voice_number.released': eventType({ description: 'A number was released (given back to the carrier); the payload is the number as it was.', schema: VoiceNumber, example: NUMBER }),
    'call.queued': eventType({ description: 'A call was created (outbound) or arrived (inbound) and waits for the carrier.', schema: VoiceCall, example: CALL }),
    'call.ringing': eventType({ description: 'The destination is ringing.', schema: VoiceCall, example: at('ringing', { ringing_at: '2026-11-28T09:00:01.000Z' }) }),
    'call.answered': eventType({ description: 'The call was answered (status in_progress).', schema: VoiceCall, example: at('in_progress', { answered_at: '2026-11-28T09:00:05.000Z' }) }),
    'call.completed': eventType({
      description: 'The call ended after being answered; `duration_seconds` is billed time.',
      schema: VoiceCall,
      example: at('completed', { answered_at: '2026-11-28T09:00:05.000Z', ended_at: '2026-11-28T09:00:41.000Z', duration_seconds: 36, end_reason: 'hangup' }),
    }),
    'call.failed': eventType({
      description: 'The call ended without being answered: status busy, no_answer, failed or canceled; `end_reason` says why.',
      schema: VoiceCall,
      example: at('busy', { ended_at: '2026-11-28T09:00:03.000Z', duration_seconds: 0, end_reason: 'busy' }),
    }),
    'call.transferred': eventType({
      description: 'A call in progress was transferred (its last `transfers` entry).',
      schema: VoiceCall,
      example: at('in_progress', { transfers: [{ to: { type: 'number', phone_number: '+14155550188', member_id: null }, mode: 'cold', announcement: null, at: '2026-11-28T09:00:20.000Z' }] }),
    }),
    'call.recording.ready': eventType({
      description: 'The recording of a call can be downloaded.',
      schema: VoiceRecording,
      example: {
        object: 'voice_recording',
        call_id: CALL.id,
        status: 'ready',
        reason: null,
        format: 'audio/wav',
        duration_ms: 36_200,
        size_bytes: 1_596_464,
        channels: 1,
        media_url: `${CALL.recording.url}?format=wav`,
      },
    }),
    'call.transcript.ready': eventType({
      description: 'The transcript of a call is ready (its lines are also messages of the call’s conversation).',
      schema: VoiceTranscript,
      example: {
        object: 'voice_transcript',
        call_id: CALL.id,
        status: 'ready',
        reason: null,
        language: 'en',
        segments: [{ speaker: 'bot', start_ms: 0, end_ms: 2100, text: 'Hi, this is Acme calling about your order.', confidence: 1 }],
      },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof VOICE_EVENTS> {}
}
