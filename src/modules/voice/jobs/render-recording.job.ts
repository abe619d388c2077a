import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { fromJson } from '../../../kernel/db/database.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { RenderPayload } from '../call-lifecycle.js'
import { assembleRecording } from '../speech/wav.js'
import * as repo from '../voice.repository.js'
import { apiBase } from '../voice.shared.js'
import type { VoiceSpeech } from '../voice.speech.js'
import type { CallLine } from '../voice.tables.js'
import { recordingView } from '../voice.views.js'

const RENDER_RETRIES = [2, 10, 60]

/** Where a call's recording is kept in the blob store. */
export const recordingKey = (tenant: Tenant, callId: string) => `voice/${tenant.workspaceId}/${tenant.mode}/${callId}.wav`.toLowerCase()

/**
 * The recording of a simulated call: every line spoken again by the synthesiser and laid on the call's
 * timeline (answer to hang-up), so the WAV's length is the call's and each line sits where the
 * transcript says. The blob is written whole under its final key first (a retry rewrites it), then the
 * call is marked ready with the event in one transaction.
 */
export const renderRecordingJob = (k: Kernel, speech: VoiceSpeech) =>
  defineJob<RenderPayload>({
    name: 'voice.render-recording',
    retrySchedule: RENDER_RETRIES,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const call = await repo.findCall(k.db, tenant, p.call_id)
      if (!call || call.recording_status !== 'processing' || !call.answered_at || !call.ended_at) return
      const totalMs = Date.parse(call.ended_at) - Date.parse(call.answered_at)
      const key = recordingKey(tenant, call.id)
      let size: number
      try {
        const parts = []
        for (const line of fromJson<CallLine[]>(call.lines, [])) {
          const pcm = await speech.speak(line.text, line.speaker)
          // The line keeps the length it was planned with (the same synthesiser, so at most a few samples cut).
          const keep = Math.round(((line.end_ms - line.start_ms) * pcm.sampleRate) / 1000)
          parts.push({ startMs: line.start_ms, pcm: { sampleRate: pcm.sampleRate, samples: pcm.samples.subarray(0, keep) } })
        }
        size = (await k.blobs.put(key, assembleRecording(parts, totalMs), { contentType: 'audio/wav' })).size
      } catch (err) {
        if (ctx.attempt <= RENDER_RETRIES.length) throw err
        await repo.updateMediaIf(
          k.db,
          tenant,
          call.id,
          { recording_status: 'processing' },
          { recording_status: 'failed', recording_reason: `The recording could not be made: ${(err as Error).message}`.slice(0, 500) },
        )
        return
      }
      await k.transaction(sideOwner(tenant), async (tx) => {
        const patch = { recording_status: 'ready' as const, recording_key: key, recording_duration_ms: totalMs, recording_size: size, recording_reason: null }
        if (!(await repo.updateMediaIf(tx, tenant, call.id, { recording_status: 'processing' }, patch))) return
        await k.events.emit(tx, tenant, 'call.recording.ready', recordingView({ ...call, ...patch }, apiBase(k, tenant)))
      })
    },
  })
