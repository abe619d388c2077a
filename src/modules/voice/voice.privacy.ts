import { iso } from '../../kernel/clock.js'
import type { ModulePrivacy } from '../../kernel/module.js'
import * as repo from './voice.repository.js'
import { apiBase } from './voice.shared.js'
import type { VoiceCallsTable } from './voice.tables.js'
import { callView, transcriptView } from './voice.views.js'

// The voice module's part in data-subject requests (docs/compliance.md "What each module does"). Calls are
// found by the subject's phone on the caller side; the call row stays (billing and usage count it) with
// the person taken out of it. The call's conversation is the inbox's to erase.

/** What the subject's number becomes in an erased call: E.164-shaped, and no one's (no country code 0). */
export const ERASED_NUMBER = '+00000000000'

/** What erasure clears: the audio, the words (transcript, spoken lines, the sandbox caller's script), the carrier's link to its copy. */
const mediaErased = (reason: string): Partial<VoiceCallsTable> => ({
  recording_status: 'none',
  recording_key: null,
  recording_duration_ms: null,
  recording_size: null,
  recording_url: null,
  recording_reason: reason,
  transcript_status: 'unavailable',
  transcript: null,
  transcript_language: null,
  transcript_reason: reason,
  lines: '[]',
  script: '[]',
})

export const voicePrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const calls = subject.phone ? await repo.callsOfPhone(k.db, tenant, subject.phone) : []
    const base = apiBase(k, tenant)
    const recorded = calls.filter((c) => c.recording_status === 'ready' && c.recording_key)
    return {
      records: {
        calls: calls.map((c) => callView(c, base)),
        transcripts: calls.filter((c) => c.transcript_status === 'ready').map(transcriptView),
      },
      files: recorded.map((c) => ({ name: `recordings/${c.id}.wav`, key: c.recording_key!, contentType: 'audio/wav' })),
      ids: calls.map((c) => c.id),
    }
  },

  /**
   * Per call: the recording blob deleted (status `none`, reason `erased`), the transcript and lines
   * cleared (`unavailable`, `erased`), the subject's number replaced by ERASED_NUMBER — so a second run
   * finds nothing. A copy the carrier keeps (Twilio's recording) is not reached from here.
   */
  async erase(k, _services, tenant, subject) {
    if (!subject.phone) return { deleted: 0, anonymised: 0 }
    const calls = await repo.callsOfPhone(k.db, tenant, subject.phone)
    let deleted = 0
    for (const c of calls) {
      // The blob first: a crash between the two leaves the call findable, and the retry finishes it.
      if (c.recording_key) {
        await k.blobs.delete(c.recording_key)
        deleted++
      }
      const side = c.direction === 'outbound' ? { to_number: ERASED_NUMBER } : { from_number: ERASED_NUMBER }
      await repo.updateCall(k.db, tenant, c.id, { ...mediaErased('erased'), ...side, updated_at: iso(k.clock.now()) })
    }
    return { deleted, anonymised: calls.length }
  },
}
