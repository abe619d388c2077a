import { fromJson } from '../../kernel/db/database.js'
import type { VoiceCallT, VoiceNumberT, VoiceRecordingT, VoiceTranscriptT } from './voice.schemas.js'
import type { CallLine, VoiceCallsTable, VoiceNumbersTable } from './voice.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export function numberView(r: VoiceNumbersTable): VoiceNumberT {
  return {
    id: r.id,
    object: 'voice_number',
    phone_number: r.e164,
    country: r.country,
    area_code: r.area_code,
    friendly_name: r.friendly_name,
    capabilities: fromJson(r.capabilities, { voice: true, sms: false }),
    carrier: r.carrier,
    answer: { type: r.answer_type, id: r.answer_id, greeting: r.greeting },
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export const recordingPath = (callId: string) => `/voice/calls/${callId}/recording`
export const transcriptPath = (callId: string) => `/voice/calls/${callId}/transcript`

/** `base` is the API's base URL of the tenant's mode (…/v2 or …/sandbox/v2). */
export function callView(r: VoiceCallsTable, base: string): VoiceCallT {
  return {
    id: r.id,
    object: 'voice_call',
    direction: r.direction,
    number_id: r.number_id,
    from: r.from_number,
    to: r.to_number,
    status: r.status,
    carrier: r.carrier,
    answer: { type: r.answer_type, id: r.answer_id, greeting: r.greeting },
    record: r.record === 1,
    conversation_id: r.conversation_id,
    queued_at: r.queued_at,
    ringing_at: r.ringing_at,
    answered_at: r.answered_at,
    ended_at: r.ended_at,
    duration_seconds: r.duration_seconds === null ? null : Number(r.duration_seconds),
    end_reason: r.end_reason,
    history: fromJson(r.history, []),
    transfers: fromJson(r.transfers, []),
    recording: { status: r.recording_status, url: r.record === 1 ? `${base}${recordingPath(r.id)}` : null },
    transcript: { status: r.transcript_status, url: `${base}${transcriptPath(r.id)}` },
    metadata: fromJson(r.metadata, {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export function transcriptView(r: VoiceCallsTable): VoiceTranscriptT {
  const lines = r.transcript_status === 'ready' ? fromJson<CallLine[]>(r.transcript, []) : []
  return {
    object: 'voice_transcript',
    call_id: r.id,
    status: r.transcript_status,
    reason: r.transcript_reason,
    language: r.transcript_language,
    segments: lines.map((l) => ({ speaker: l.speaker, start_ms: l.start_ms, end_ms: l.end_ms, text: l.text, confidence: l.confidence })),
  }
}

export function recordingView(r: VoiceCallsTable, base: string): VoiceRecordingT {
  const ready = r.recording_status === 'ready'
  return {
    object: 'voice_recording',
    call_id: r.id,
    status: r.recording_status === 'ready' || r.recording_status === 'unavailable' || r.recording_status === 'failed' ? r.recording_status : 'processing',
    reason: r.recording_reason,
    format: 'audio/wav',
    duration_ms: ready ? Number(r.recording_duration_ms) : null,
    size_bytes: ready ? Number(r.recording_size) : null,
    // The simulation records one mixed channel; Twilio is asked for two (caller, us).
    channels: ready ? (r.carrier === 'simulated' ? 1 : 2) : null,
    media_url: ready ? `${base}${recordingPath(r.id)}?format=wav` : null,
  }
}
