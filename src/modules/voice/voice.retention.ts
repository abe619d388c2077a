import { iso } from '../../kernel/clock.js'
import type { RetentionClass } from '../../kernel/module.js'
import * as repo from './voice.repository.js'

/** The voice module's classes of data a retention policy governs (docs/compliance.md "Retention"). */
export const VOICE_RETENTION: RetentionClass[] = [
  {
    name: 'call_recordings',
    description: 'Call recordings (ready ones, of calls ended before the cutoff): the audio is deleted, the recording shows status none with reason retention; the call stays.',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countReadyMediaBefore(k.db, tenant, 'recording', before),
    async purge(k, tenant, before, limit) {
      const calls = await repo.readyMediaBefore(k.db, tenant, 'recording', before, limit)
      for (const c of calls) {
        if (c.recording_key) await k.blobs.delete(c.recording_key)
        const patch = {
          recording_status: 'none' as const,
          recording_key: null,
          recording_duration_ms: null,
          recording_size: null,
          recording_url: null,
          recording_reason: 'retention',
          updated_at: iso(k.clock.now()),
        }
        await repo.updateMediaIf(k.db, tenant, c.id, { recording_status: 'ready' }, patch)
      }
      return calls.length
    },
  },
  {
    name: 'transcripts',
    description:
      'Call transcripts (ready ones, of calls ended before the cutoff): the text and the spoken lines are cleared, the transcript shows status unavailable with reason retention; the call.transcript.ready events older than the cutoff (the text) go too.',
    events: ['call.transcript.ready'],
    minimumDays: 1,
    count: (k, tenant, before) => repo.countReadyMediaBefore(k.db, tenant, 'transcript', before),
    async purge(k, tenant, before, limit) {
      const calls = await repo.readyMediaBefore(k.db, tenant, 'transcript', before, limit)
      for (const c of calls) {
        const patch = {
          transcript_status: 'unavailable' as const,
          transcript: null,
          transcript_language: null,
          transcript_reason: 'retention',
          lines: '[]',
          script: '[]',
          updated_at: iso(k.clock.now()),
        }
        await repo.updateMediaIf(k.db, tenant, c.id, { transcript_status: 'ready' }, patch)
      }
      return calls.length
    },
  },
]
