import type { Mode } from '../../kernel/tenant.js'
import type { CallStatus } from './carriers/carrier.types.js'

export type Carrier = 'simulated' | 'twilio'
export type Answerer = 'bot' | 'agent' | 'greeting'
export type Speaker = 'bot' | 'caller' | 'member'
export type RecordingStatus = 'none' | 'pending' | 'processing' | 'ready' | 'unavailable' | 'failed'
export type TranscriptStatus = 'pending' | 'processing' | 'ready' | 'unavailable' | 'failed'

export interface VoiceNumbersTable {
  id: string
  workspace_id: string
  mode: Mode
  /** E.164; one workspace (per mode and carrier) owns it. */
  e164: string
  country: string
  area_code: string | null
  friendly_name: string
  /** JSON { voice, sms }. */
  capabilities: string
  carrier: Carrier
  /** The carrier's id of the number (Twilio PN…); null on the simulated carrier. */
  carrier_sid: string | null
  /** What answers inbound calls: a bot, an agent, or only the greeting. */
  answer_type: Answerer
  answer_id: string | null
  greeting: string | null
  created_at: string
  updated_at: string
}

/** One planned or spoken line of a call, relative to the moment it was answered. */
export interface CallLine {
  speaker: Speaker
  text: string
  start_ms: number
  end_ms: number
  confidence: number | null
}

export interface VoiceCallsTable {
  id: string
  workspace_id: string
  mode: Mode
  direction: 'outbound' | 'inbound'
  number_id: string
  from_number: string
  to_number: string
  status: CallStatus
  carrier: Carrier
  carrier_sid: string | null
  answer_type: Answerer
  answer_id: string | null
  greeting: string | null
  record: number
  /** JSON string[]: the caller's lines (sandbox script). */
  script: string
  conversation_id: string
  queued_at: string
  ringing_at: string | null
  answered_at: string | null
  ended_at: string | null
  duration_seconds: number | null
  /** Whole minutes, rounded up as carriers bill (usage `voice_minutes`). */
  billed_minutes: number
  end_reason: string | null
  /** JSON [{ status, at }]: every status the call went through. */
  history: string
  /** JSON: the transfers made, oldest first. */
  transfers: string
  /** Bumped when the plan changes (a transfer): the worker's steps of an older plan do nothing. */
  plan_seq: number
  /** JSON CallLine[]: the conversation as planned (simulated) or as spoken so far (carrier). */
  lines: string
  recording_status: RecordingStatus
  recording_key: string | null
  recording_duration_ms: number | null
  recording_size: number | null
  recording_reason: string | null
  recording_url: string | null
  transcript_status: TranscriptStatus
  /** JSON CallLine[] without audio: the transcript once ready. */
  transcript: string | null
  transcript_language: string | null
  transcript_reason: string | null
  metadata: string
  created_at: string
  updated_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    voice_numbers: VoiceNumbersTable
    voice_calls: VoiceCallsTable
  }
}

/** One transfer of a call (the `transfers` JSON). */
export interface CallCarrierTransfer {
  to: { type: 'number' | 'member'; phone_number: string | null; member_id: string | null }
  mode: 'cold' | 'warm'
  announcement: string | null
  at: string
}
