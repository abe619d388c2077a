import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../kernel/db/database.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { CallStatus } from './carriers/carrier.types.js'
import * as repo from './voice.repository.js'
import { apiBase, FINAL_STATUSES } from './voice.shared.js'
import type { CallLine, VoiceCallsTable } from './voice.tables.js'
import { callView, transcriptView } from './voice.views.js'

export interface RenderPayload {
  workspace_id: string
  mode: Tenant['mode']
  call_id: string
}

const EVENT_OF: Partial<Record<CallStatus, 'call.ringing' | 'call.answered' | 'call.completed' | 'call.failed'>> = {
  ringing: 'call.ringing',
  in_progress: 'call.answered',
  completed: 'call.completed',
  busy: 'call.failed',
  no_answer: 'call.failed',
  failed: 'call.failed',
  canceled: 'call.failed',
}

/** Statuses a call may move to from each (docs/voice.md "Call states"); a carrier may skip ringing. */
const NEXT: Record<CallStatus, CallStatus[]> = {
  queued: ['ringing', 'in_progress', 'busy', 'no_answer', 'failed', 'canceled'],
  ringing: ['in_progress', 'busy', 'no_answer', 'failed', 'canceled'],
  in_progress: ['completed', 'failed'],
  completed: [],
  busy: [],
  no_answer: [],
  failed: [],
  canceled: [],
}
export const canMove = (from: CallStatus, to: CallStatus) => NEXT[from].includes(to)

/**
 * The one place a call changes status, for every carrier: the step and its time go into `history`, the
 * matching event is emitted, and an ended call is finished — its transcript written to the call's
 * conversation, its recording queued for rendering — all in the caller's transaction, only if the call
 * is still as the caller read it (else null, and nothing was written).
 */
export class CallLifecycle {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly render: () => JobDefinition<RenderPayload>,
    private readonly transcribe: () => JobDefinition<RenderPayload>,
    /** Whether recordings can be rendered here (a speech synthesiser is installed), and why not. */
    private readonly speech: () => Promise<{ available: boolean; reason: string | null }>,
  ) {}

  async move(tx: Tx, tenant: Tenant, call: VoiceCallsTable, to: CallStatus, at: Date, patch: Partial<VoiceCallsTable> = {}): Promise<VoiceCallsTable | null> {
    if (!canMove(call.status, to)) return null
    const when = iso(at)
    const next: VoiceCallsTable = { ...call, ...patch, status: to, updated_at: iso(this.k.clock.now()) }
    next.history = toJson([...fromJson<{ status: CallStatus; at: string }[]>(call.history, []), { status: to, at: when }])
    if (to === 'ringing') next.ringing_at = when
    if (to === 'in_progress') next.answered_at = when
    // Recording starts with the answer: from now on the recording exists, processing until it is rendered or fetched.
    if (to === 'in_progress' && call.record === 1 && call.recording_status === 'pending') next.recording_status = 'processing'
    if (FINAL_STATUSES.has(to)) Object.assign(next, await this.ended(next, when))
    const changed: Partial<VoiceCallsTable> = {}
    for (const key of Object.keys(next) as (keyof VoiceCallsTable)[]) if (next[key] !== call[key]) (changed as Record<string, unknown>)[key] = next[key]
    if (!(await repo.updateCallIf(tx, tenant, call.id, call, changed))) return null
    const view = callView(next, apiBase(this.k, tenant))
    await this.k.events.emit(tx, tenant, EVENT_OF[to]!, view)
    if (FINAL_STATUSES.has(to)) await this.finish(tx, tenant, next)
    return next
  }

  /** The columns of an ended call: times, billing, and what becomes of its recording and transcript. */
  private async ended(call: VoiceCallsTable, when: string): Promise<Partial<VoiceCallsTable>> {
    const answered = call.answered_at !== null
    const ms = answered ? Math.max(0, Date.parse(when) - Date.parse(call.answered_at!)) : 0
    const seconds = Math.ceil(ms / 1000)
    const lines = fromJson<CallLine[]>(call.lines, [])
    const out: Partial<VoiceCallsTable> = { ended_at: when, duration_seconds: seconds, billed_minutes: Math.ceil(seconds / 60), end_reason: call.end_reason ?? (answered ? 'hangup' : call.status) }
    if (!answered) {
      Object.assign(out, { transcript_status: 'unavailable', transcript_reason: 'The call was not answered.' })
      if (call.record === 1) Object.assign(out, { recording_status: 'none', recording_reason: 'The call was not answered.' })
      return out
    }
    if (call.carrier === 'simulated') {
      // The simulation knows every word said: the transcript is the plan as it was spoken.
      Object.assign(out, { transcript_status: 'ready', transcript: toJson(lines), transcript_language: 'en', transcript_reason: null })
      if (call.record === 1) {
        const speech = await this.speech()
        Object.assign(out, speech.available ? { recording_status: 'processing' } : { recording_status: 'unavailable', recording_reason: speech.reason })
      }
      return out
    }
    // A real carrier: lines heard through speech gathering make the transcript; otherwise it comes from the
    // recording (transcription) or not at all.
    if (lines.length) Object.assign(out, { transcript_status: 'ready', transcript: toJson(lines), transcript_reason: null })
    else if (call.record === 1 && this.k.config.transcription) Object.assign(out, { transcript_status: 'processing' })
    else
      Object.assign(out, {
        transcript_status: 'unavailable',
        transcript_reason: call.record === 1 ? 'No transcription endpoint is configured (TRANSCRIPTION_BASE_URL).' : 'The call was not recorded and no speech was gathered.',
      })
    if (call.record === 1 && call.recording_status === 'pending') out.recording_status = 'processing'
    return out
  }

  private async finish(tx: Tx, tenant: Tenant, call: VoiceCallsTable): Promise<void> {
    if (call.transcript_status === 'ready') await this.transcriptReady(tx, tenant, call)
    const job = { workspace_id: tenant.workspaceId, mode: tenant.mode, call_id: call.id }
    if (call.carrier === 'simulated' && call.recording_status === 'processing') await enqueue(tx, this.k.clock, this.render(), job)
    // A carrier's recording that arrived before the hang-up: transcribe it now (otherwise its fetch does).
    if (call.transcript_status === 'processing' && call.recording_status === 'ready') await this.queueTranscription(tx, tenant, call.id)
  }

  async queueTranscription(tx: Tx, tenant: Tenant, callId: string): Promise<void> {
    await enqueue(tx, this.k.clock, this.transcribe(), { workspace_id: tenant.workspaceId, mode: tenant.mode, call_id: callId })
  }

  /** The transcript's lines become messages of the call's conversation (lead scoring and gaps see them), then the event. */
  async transcriptReady(tx: Tx, tenant: Tenant, call: VoiceCallsTable): Promise<void> {
    const lines = fromJson<CallLine[]>(call.transcript, [])
    const start = Date.parse(call.answered_at ?? call.queued_at)
    await this.services.inbox.turns.record(
      tx,
      tenant,
      call.conversation_id,
      lines.map((l) => ({
        direction: l.speaker === 'caller' ? 'inbound' : 'outbound',
        content: l.text,
        author:
          l.speaker === 'caller'
            ? { type: 'contact', id: null }
            : l.speaker === 'member'
              ? { type: 'member', id: memberOf(call) }
              : { type: call.answer_type === 'agent' ? 'agent' : 'bot', id: call.answer_id },
        at: iso(new Date(start + l.start_ms)),
      })),
    )
    await this.k.events.emit(tx, tenant, 'call.transcript.ready', transcriptView(call))
  }
}

/** The member a call was last transferred to, if any (their lines are authored by them). */
function memberOf(call: VoiceCallsTable): string | null {
  const transfers = fromJson<{ to: { member_id: string | null } }[]>(call.transfers, [])
  return transfers.at(-1)?.to.member_id ?? null
}
