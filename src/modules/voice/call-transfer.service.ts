import { iso } from '../../kernel/clock.js'
import { fromJson, toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { endOf, planTransfer } from './call-plan.js'
import type { SimStepPayload } from './jobs/sim-call-step.job.js'
import { e164Or422 } from './simulated/sim-numbers.js'
import type { VoiceCarriers } from './voice-carriers.js'
import * as repo from './voice.repository.js'
import type { TransferVoiceCallBodyT, VoiceCallT } from './voice.schemas.js'
import { apiBase, callOr404 } from './voice.shared.js'
import type { VoiceSpeech } from './voice.speech.js'
import type { CallCarrierTransfer, VoiceCallsTable } from './voice.tables.js'
import { callView } from './voice.views.js'

const notInProgress = (call: VoiceCallsTable) => new AppError('call_not_in_progress', `Call ${call.id} is ${call.status}; only a call in progress can be transferred.`, { call_status: call.status })

/**
 * transferVoiceCall: to a phone number or a member, cold or warm, with an optional announcement; only
 * while the call is in progress (409 otherwise). The transfer joins the call's history and emits
 * call.transferred. On the simulated carrier the rest of the conversation is planned again (a line being
 * spoken ends first); on Twilio the live call is redirected with TwiML.
 */
export class CallTransferService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly carriers: VoiceCarriers,
    private readonly speech: VoiceSpeech,
    private readonly simStep: () => JobDefinition<SimStepPayload>,
  ) {}

  async transfer(principal: Principal, id: string, body: TransferVoiceCallBodyT): Promise<VoiceCallT> {
    const target = await this.target(principal, body)
    const call = await callOr404(this.k.db, principal, id)
    if (call.status !== 'in_progress') throw notInProgress(call)
    const now = this.k.clock.now()
    const transfer: CallCarrierTransfer = { to: target.to, mode: body.mode ?? 'cold', announcement: body.announcement ?? null, at: iso(now) }
    const patch: Partial<VoiceCallsTable> = {
      transfers: toJson([...fromJson<CallCarrierTransfer[]>(call.transfers, []), transfer]),
      plan_seq: Number(call.plan_seq) + 1,
      updated_at: iso(now),
    }
    if (call.carrier === 'simulated') {
      const atMs = now.getTime() - Date.parse(call.answered_at!)
      const lines = await planTransfer(fromJson(call.lines, []), atMs, { mode: transfer.mode, announcement: transfer.announcement, targetName: target.name }, this.speech.measure)
      patch.lines = toJson(lines)
      return this.commit(principal, call, patch, async (tx) => {
        const payload: SimStepPayload = { workspace_id: principal.workspaceId, mode: principal.mode, call_id: call.id, seq: patch.plan_seq!, to: 'completed' }
        await enqueue(tx, this.k.clock, this.simStep(), payload, { runAt: new Date(Date.parse(call.answered_at!) + endOf(lines)) })
      })
    }
    const twilio = await this.carriers.twilio(principal)
    if (!twilio) throw new AppError('unprocessable', 'The call is on Twilio, but the workspace has no Twilio account configured any more.')
    await twilio.transfer(call, transfer, target.dial)
    return this.commit(principal, call, patch, async () => {})
  }

  private async commit(
    principal: Principal,
    call: VoiceCallsTable,
    patch: Partial<VoiceCallsTable>,
    more: (tx: Parameters<Parameters<Kernel['transaction']>[1]>[0]) => Promise<void>,
  ): Promise<VoiceCallT> {
    return this.k.transaction(principal, async (tx) => {
      if (!(await repo.updateCallIf(tx, principal, call.id, call, patch))) {
        // Ended, or another transfer got there first, since it was read.
        const now = await callOr404(tx, principal, call.id)
        throw now.status !== 'in_progress' ? notInProgress(now) : new AppError('conflict', `Call ${call.id} changed while it was being transferred; read it and try again.`)
      }
      await more(tx)
      const view = callView({ ...call, ...patch }, apiBase(this.k, principal))
      await this.k.events.emit(tx, principal, 'call.transferred', view)
      return view
    })
  }

  /** Exactly one target: an E.164 number, or an active member (spoken to by name; dialled at their phone on Twilio). */
  private async target(tenant: Tenant, body: TransferVoiceCallBodyT): Promise<{ to: CallCarrierTransfer['to']; name: string; dial: string | null }> {
    const { phone_number: phone, member_id: memberId } = body.to
    if (!!phone === !!memberId) {
      throw new AppError('validation_failed', 'Transfer to exactly one of to.phone_number and to.member_id.', {
        errors: [{ pointer: '/body/to', detail: 'exactly one of phone_number and member_id' }],
      })
    }
    if (phone) {
      const e164 = e164Or422(phone, '/body/to/phone_number')
      return { to: { type: 'number', phone_number: e164, member_id: null }, name: 'a colleague', dial: e164 }
    }
    const member = await this.services.workspaces.getMember(tenant, memberId!)
    if (!member || member.status !== 'active') {
      throw new AppError('invalid_reference', `'${memberId}' is not an active member of this workspace.`, {
        errors: [{ pointer: '/body/to/member_id', detail: member ? 'the member has not accepted the invitation' : 'no such member' }],
      })
    }
    return { to: { type: 'member', phone_number: null, member_id: member.id }, name: member.name ?? member.email.split('@')[0], dial: `client:${member.id}` }
  }
}
