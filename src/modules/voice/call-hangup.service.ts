import { fromJson, toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal } from '../../kernel/tenant.js'
import type { CallLifecycle } from './call-lifecycle.js'
import type { VoiceCarriers } from './voice-carriers.js'
import type { VoiceCallT } from './voice.schemas.js'
import { apiBase, callOr404, FINAL_STATUSES } from './voice.shared.js'
import type { CallLine, VoiceCallsTable } from './voice.tables.js'
import { callView } from './voice.views.js'

/** Why a call ended when the API hung it up (`end_reason`). */
export const ENDED_BY_API = 'ended_by_api'

const ended = (call: VoiceCallsTable) => new AppError('call_ended', `Call ${call.id} has already ended (${call.status}).`, { call_status: call.status })

/** What was said by `atMs` after the answer: lines not begun are dropped, the line being spoken is cut there. */
export function spokenBy(lines: CallLine[], atMs: number): CallLine[] {
  return lines.filter((l) => l.start_ms < atMs).map((l) => (l.end_ms > atMs ? { ...l, end_ms: atMs } : l))
}

/**
 * hangupVoiceCall: ends a call as a person hanging up would. One not answered yet is canceled (the
 * destination stops ringing); one in progress completes at once, its transcript and recording holding
 * what was said until then. 409 `call_ended` once it has ended. On Twilio the live call is ended there
 * first (Status=completed ends it whatever Twilio's own state); a call still being placed, which Twilio
 * has not named yet, is canceled here and ended there by the placement when it learns the call's sid.
 */
export class CallHangupService {
  constructor(
    private readonly k: Kernel,
    private readonly carriers: VoiceCarriers,
    private readonly lifecycle: CallLifecycle,
  ) {}

  async hangup(principal: Principal, id: string): Promise<VoiceCallT> {
    const call = await callOr404(this.k.db, principal, id)
    if (FINAL_STATUSES.has(call.status)) throw ended(call)
    const atCarrier = call.carrier === 'twilio' && !!call.carrier_sid && !call.carrier_sid.startsWith('placing:')
    if (atCarrier) {
      const twilio = await this.carriers.twilio(principal)
      if (!twilio) throw new AppError('carrier_not_configured', `Call ${call.id} is on Twilio, and the workspace has no Twilio account configured any more.`)
      await twilio.end(call)
    }
    return this.k.transaction(principal, async (tx) => {
      // The call may move while it is hung up (the simulation or the carrier rings or answers it): hang up what
      // it is now, read again in this transaction. A few tries; each loss means another step committed meanwhile.
      for (let current = call, tries = 0; ; tries++) {
        const moved = await this.lifecycle.move(tx, principal, current, ...this.ending(current, this.k.clock.now()))
        if (moved) return callView(moved, apiBase(this.k, principal))
        current = await callOr404(tx, principal, id)
        // Twilio's status callback of the end we asked for can arrive first: that end is this hang-up's.
        if (FINAL_STATUSES.has(current.status)) {
          if (atCarrier) return callView(current, apiBase(this.k, principal))
          throw ended(current)
        }
        if (tries >= 4) throw new AppError('conflict', `Call ${call.id} kept changing while it was being hung up; read it and try again.`)
      }
    })
  }

  /** Where a hang-up takes the call as it is now, and what changes with it. */
  private ending(call: VoiceCallsTable, now: Date): ['completed' | 'canceled', Date, Partial<VoiceCallsTable>] {
    const to = call.status === 'in_progress' ? 'completed' : 'canceled'
    const patch: Partial<VoiceCallsTable> = { end_reason: ENDED_BY_API, plan_seq: Number(call.plan_seq) + 1 }
    if (call.carrier === 'simulated' && to === 'completed') {
      patch.lines = toJson(spokenBy(fromJson<CallLine[]>(call.lines, []), now.getTime() - Date.parse(call.answered_at!)))
    }
    return [to, now, patch]
  }
}
