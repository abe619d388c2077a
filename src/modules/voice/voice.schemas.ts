import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
/** A string enum with its literal type (one `enum` keyword: validated and serialised as a plain string). */
const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })
const E164 = Type.String({ minLength: 2, maxLength: 20, description: 'E.164, e.g. +14155550123.', examples: ['+14155550123'] })

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })

export const CALL_STATUSES = ['queued', 'ringing', 'in_progress', 'completed', 'busy', 'no_answer', 'failed', 'canceled'] as const
export const CallStatus = oneOf(CALL_STATUSES, {
  title: 'VoiceCallStatus',
  description: 'queued → ringing → in_progress → completed, or busy / no_answer / failed / canceled (docs/voice.md).',
})

const Carrier = Type.Union([Type.Literal('simulated'), Type.Literal('twilio')], { title: 'VoiceCarrier' })
const AnswerType = Type.Union([Type.Literal('bot'), Type.Literal('agent'), Type.Literal('greeting')], {
  description: 'A bot (its published version), an agent (instructions and knowledge, no tools on a call), or the greeting alone.',
})
const Answer = Type.Object(
  {
    type: AnswerType,
    id: Nullable(Type.String({ description: 'The bot (bot_…) or agent (agt_…); null for greeting.' })),
    greeting: Nullable(Type.String({ description: 'First words spoken when the call is answered.' })),
  },
  { title: 'VoiceAnswer' },
)
const AnswerInput = Type.Object(
  {
    bot_id: Type.Optional(Type.String({ maxLength: 64 })),
    agent_id: Type.Optional(Type.String({ maxLength: 64 })),
    greeting: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
)

export const VoiceNumber = Type.Object(
  {
    id: Type.String({ examples: ['num_01JD0000000000000000000000'] }),
    object: Type.Literal('voice_number'),
    phone_number: E164,
    country: Type.String({ description: 'ISO 3166-1 alpha-2.' }),
    area_code: Nullable(Type.String()),
    friendly_name: Type.String(),
    capabilities: Type.Object({ voice: Type.Boolean(), sms: Type.Boolean() }, { title: 'VoiceNumberCapabilities' }),
    carrier: Carrier,
    answer: Answer,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'VoiceNumber' },
)
export type VoiceNumberT = Static<typeof VoiceNumber>
export const VoiceNumberList = Page(VoiceNumber, 'VoiceNumber')

export const ListVoiceNumbersQuery = Type.Object({ ...PageQuery, country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })) }, { additionalProperties: false })
export type ListVoiceNumbersQueryT = Static<typeof ListVoiceNumbersQuery>

export const ProvisionVoiceNumberBody = Type.Object(
  {
    country: Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2; the simulated carrier has US, CA, GB and AU.' }),
    area_code: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', description: 'NANP area code (US, CA) or national area code.' })),
    friendly_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    ...AnswerInput.properties,
  },
  { additionalProperties: false },
)
export type ProvisionVoiceNumberBodyT = Static<typeof ProvisionVoiceNumberBody>

export const UpdateVoiceNumberBody = Type.Object(
  {
    friendly_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    bot_id: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'Answer with this bot (the agent is dropped); null: stop answering with the bot.' }))),
    agent_id: Type.Optional(Nullable(Type.String({ maxLength: 64, description: 'Answer with this agent (the bot is dropped); null: stop answering with the agent.' }))),
    greeting: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500, description: "First words spoken; null: the answerer's own." }))),
  },
  { additionalProperties: false },
)
export type UpdateVoiceNumberBodyT = Static<typeof UpdateVoiceNumberBody>

export const ReleasedVoiceNumber = Type.Object({ id: Type.String(), object: Type.Literal('voice_number'), phone_number: E164, deleted: Type.Literal(true) }, { $id: 'ReleasedVoiceNumber' })
export type ReleasedVoiceNumberT = Static<typeof ReleasedVoiceNumber>

const Speaker = Type.Union([Type.Literal('bot'), Type.Literal('caller'), Type.Literal('member')], { title: 'VoiceSpeaker' })

const Transfer = Type.Object(
  {
    to: Type.Object({ type: Type.Union([Type.Literal('number'), Type.Literal('member')]), phone_number: Nullable(E164), member_id: Nullable(Type.String()) }, { title: 'VoiceTransferTarget' }),
    mode: Type.Union([Type.Literal('cold'), Type.Literal('warm')]),
    announcement: Nullable(Type.String()),
    at: DateTime,
  },
  { title: 'VoiceTransfer' },
)

export const VoiceCall = Type.Object(
  {
    id: Type.String({ examples: ['call_01JD0000000000000000000000'] }),
    object: Type.Literal('voice_call'),
    direction: Type.Union([Type.Literal('outbound'), Type.Literal('inbound')]),
    number_id: Type.String(),
    from: E164,
    to: E164,
    status: CallStatus,
    carrier: Carrier,
    answer: Answer,
    record: Type.Boolean(),
    conversation_id: Type.String({ description: 'The inbox conversation (voice channel) the transcript lines are written to.' }),
    queued_at: DateTime,
    ringing_at: Nullable(DateTime),
    answered_at: Nullable(DateTime),
    ended_at: Nullable(DateTime),
    duration_seconds: Nullable(Type.Integer({ description: 'From answer to hang-up, rounded up; 0 for calls never answered.' })),
    end_reason: Nullable(Type.String()),
    history: Type.Array(Type.Object({ status: CallStatus, at: DateTime }, { title: 'VoiceCallStep' })),
    transfers: Type.Array(Transfer),
    recording: Type.Object({ status: oneOf(['none', 'pending', 'processing', 'ready', 'unavailable', 'failed'] as const), url: Nullable(Type.String()) }, { title: 'VoiceCallRecordingLink' }),
    transcript: Type.Object({ status: oneOf(['pending', 'processing', 'ready', 'unavailable', 'failed'] as const), url: Type.String() }, { title: 'VoiceCallTranscriptLink' }),
    metadata: Type.Record(Type.String(), Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'VoiceCall' },
)
export type VoiceCallT = Static<typeof VoiceCall>
export const VoiceCallList = Page(VoiceCall, 'VoiceCall')

export const ListVoiceCallsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(CallStatus),
    number_id: Type.Optional(Type.String({ maxLength: 64 })),
    direction: Type.Optional(Type.Union([Type.Literal('outbound'), Type.Literal('inbound')])),
  },
  { additionalProperties: false },
)
export type ListVoiceCallsQueryT = Static<typeof ListVoiceCallsQuery>

export const CreateVoiceCallBody = Type.Object(
  {
    from_number_id: Type.String({ maxLength: 64, description: 'One of the workspace numbers (num_…).' }),
    to: Type.String({ minLength: 1, maxLength: 32, description: 'E.164 destination. Sandbox test destinations have fixed outcomes (docs/voice.md).' }),
    ...AnswerInput.properties,
    record: Type.Optional(Type.Boolean({ default: false })),
    script: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20, description: "The called party's lines, in order (simulated carrier; the sandbox's caller)." })),
    metadata: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), { maxProperties: 20 })),
  },
  { additionalProperties: false },
)
export type CreateVoiceCallBodyT = Static<typeof CreateVoiceCallBody>

export const TransferVoiceCallBody = Type.Object(
  {
    to: Type.Object(
      {
        phone_number: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
        member_id: Type.Optional(Type.String({ maxLength: 64 })),
      },
      { additionalProperties: false, description: 'Exactly one of phone_number (E.164) and member_id (an active member).' },
    ),
    mode: Type.Optional(Type.Union([Type.Literal('cold'), Type.Literal('warm')], { default: 'cold', description: 'cold: connect at once; warm: the announcement is spoken to the target first.' })),
    announcement: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
)
export type TransferVoiceCallBodyT = Static<typeof TransferVoiceCallBody>

export const VoiceRecording = Type.Object(
  {
    object: Type.Literal('voice_recording'),
    call_id: Type.String(),
    status: Type.Union([Type.Literal('processing'), Type.Literal('ready'), Type.Literal('unavailable'), Type.Literal('failed')]),
    reason: Nullable(Type.String({ description: 'Why the recording is unavailable or failed.' })),
    format: Type.Literal('audio/wav'),
    duration_ms: Nullable(Type.Integer()),
    size_bytes: Nullable(Type.Integer()),
    channels: Nullable(Type.Integer()),
    media_url: Nullable(Type.String({ description: 'GET it (with your key) for the audio; Range requests supported.' })),
  },
  { $id: 'VoiceRecording' },
)
export type VoiceRecordingT = Static<typeof VoiceRecording>
export const RecordingQuery = Type.Object(
  { format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('wav')], { description: 'wav: the audio; json: the metadata; default by Accept.' })) },
  { additionalProperties: false },
)

export const TranscriptSegment = Type.Object(
  {
    speaker: Speaker,
    start_ms: Type.Integer({ minimum: 0 }),
    end_ms: Type.Integer({ minimum: 0 }),
    text: Type.String(),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { title: 'VoiceTranscriptSegment' },
)
export const VoiceTranscript = Type.Object(
  {
    object: Type.Literal('voice_transcript'),
    call_id: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('processing'), Type.Literal('ready'), Type.Literal('unavailable'), Type.Literal('failed')]),
    reason: Nullable(Type.String()),
    language: Nullable(Type.String()),
    segments: Type.Array(TranscriptSegment),
  },
  { $id: 'VoiceTranscript' },
)
export type VoiceTranscriptT = Static<typeof VoiceTranscript>

export const MAX_TOKEN_TTL_SECONDS = 86_400
export const CreateVoiceTokenBody = Type.Object(
  {
    identity: Type.String({ minLength: 1, maxLength: 121, pattern: '^[A-Za-z0-9_.@-]+$', description: 'Who the client is (letters, digits, _ . @ -).' }),
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: MAX_TOKEN_TTL_SECONDS, default: 3600, description: `Lifetime, 60 s to ${MAX_TOKEN_TTL_SECONDS} s (24 h, Twilio's maximum too).` })),
    outgoing: Type.Optional(Type.Object({ number_id: Type.String({ maxLength: 64 }) }, { additionalProperties: false, description: 'Allow outgoing calls from this number.' })),
    incoming: Type.Optional(Type.Boolean({ default: false, description: 'Allow incoming calls to this identity.' })),
  },
  { additionalProperties: false },
)
export type CreateVoiceTokenBodyT = Static<typeof CreateVoiceTokenBody>
export const VoiceToken = Type.Object(
  {
    object: Type.Literal('voice_token'),
    token: Type.String({ description: 'A JWT (HS256) laid out like a Twilio access token.' }),
    identity: Type.String(),
    expires_at: DateTime,
    grants: Type.Object(
      { voice: Type.Object({ incoming: Type.Object({ allow: Type.Boolean() }), outgoing: Nullable(Type.Object({ number_id: Type.String(), phone_number: E164 })) }) },
      { title: 'VoiceTokenGrants' },
    ),
  },
  { $id: 'VoiceToken' },
)
export type VoiceTokenT = Static<typeof VoiceToken>
