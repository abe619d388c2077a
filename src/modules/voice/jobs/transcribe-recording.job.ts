import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { toJson } from '../../../kernel/db/database.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { Transcriber } from '../../../kernel/ai/transcribe.js'
import type { CallLifecycle, RenderPayload } from '../call-lifecycle.js'
import { splitChannels } from '../speech/wav.js'
import * as repo from '../voice.repository.js'
import type { CallLine, Speaker } from '../voice.tables.js'

const TRANSCRIBE_RETRIES = [5, 30, 120]

/**
 * The transcript of a carrier's recording through the AI seam (an OpenAI-compatible /audio/transcriptions):
 * a two-channel recording is transcribed per channel — the first the caller, the second our side — so each
 * segment has its speaker; the segments are merged in time order. The lines become the conversation's
 * messages with call.transcript.ready, in one transaction guarded by the transcript's status.
 */
export const transcribeRecordingJob = (k: Kernel, transcriber: Transcriber | null, lifecycle: CallLifecycle) =>
  defineJob<RenderPayload>({
    name: 'voice.transcribe',
    retrySchedule: TRANSCRIBE_RETRIES,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const call = await repo.findCall(k.db, tenant, p.call_id)
      if (!call || call.transcript_status !== 'processing' || call.recording_status !== 'ready' || !call.recording_key) return
      if (!transcriber) {
        await repo.updateMediaIf(
          k.db,
          tenant,
          call.id,
          { transcript_status: 'processing' },
          { transcript_status: 'unavailable', transcript_reason: 'No transcription endpoint is configured (TRANSCRIPTION_BASE_URL).' },
        )
        return
      }
      let lines: CallLine[]
      let language: string | null = null
      try {
        const wav = Buffer.concat(await k.blobs.read(call.recording_key).toArray())
        const channels = splitChannels(wav)
        const speakers: Speaker[] = channels.length === 2 ? ['caller', 'bot'] : ['caller']
        lines = []
        for (const [i, audio] of channels.entries()) {
          const out = await transcriber.transcribe(audio, { filename: `${call.id}-${i + 1}.wav` })
          language ??= out.language
          for (const s of out.segments)
            if (s.text.trim()) lines.push({ speaker: speakers[i], text: s.text.trim(), start_ms: Math.round(s.startMs), end_ms: Math.round(s.endMs), confidence: s.confidence })
        }
        lines.sort((a, b) => a.start_ms - b.start_ms || a.end_ms - b.end_ms)
      } catch (err) {
        if (ctx.attempt <= TRANSCRIBE_RETRIES.length) throw err
        await repo.updateMediaIf(
          k.db,
          tenant,
          call.id,
          { transcript_status: 'processing' },
          { transcript_status: 'failed', transcript_reason: `Transcription failed: ${(err as Error).message}`.slice(0, 500) },
        )
        return
      }
      await k.transaction(sideOwner(tenant), async (tx) => {
        const patch = { transcript_status: 'ready' as const, transcript: toJson(lines), transcript_language: language, transcript_reason: null }
        if (!(await repo.updateMediaIf(tx, tenant, call.id, { transcript_status: 'processing' }, patch))) return
        await lifecycle.transcriptReady(tx, tenant, { ...call, ...patch })
      })
    },
  })
