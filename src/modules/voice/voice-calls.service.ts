import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { CallLifecycle } from './call-lifecycle.js'
import type { SimStepPayload } from './jobs/sim-call-step.job.js'
import { e164Or422 } from './simulated/sim-numbers.js'
import { nextStep, outcomeOf } from './simulated/sim-outcomes.js'
import type { VoiceCarriers } from './voice-carriers.js'
import { checkAnswerer } from './voice-answerer.js'
import { answerOf } from './voice-numbers.service.js'
import * as repo from './voice.repository.js'
import type { CreateVoiceCallBodyT, ListVoiceCallsQueryT, VoiceCallT } from './voice.schemas.js'
import { apiBase, callOr404, numberOr404 } from './voice.shared.js'
import type { VoiceCallsTable, VoiceNumbersTable } from './voice.tables.js'
import { callView } from './voice.views.js'
import { referenced } from '../../kernel/references.js'

/** Calls: placed from one of the workspace's numbers, run by its carrier, read back with their history. */
export class VoiceCallsService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly carriers: VoiceCarriers,
    private readonly simStep: () => JobDefinition<SimStepPayload>,
  ) {}

  list(tenant: Tenant, q: ListVoiceCallsQueryT): Promise<PageResult<VoiceCallT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    const base = apiBase(this.k, tenant)
    return this.k.paginate({ list: 'listVoiceCalls', tenant, filters, query: q, fetch: (page) => repo.listCalls(this.k.db, tenant, q, page), key: (r) => r.id, view: (r) => callView(r, base) })
  }

  async get(tenant: Tenant, id: string): Promise<VoiceCallT> {
    return callView(await callOr404(this.k.db, tenant, id), apiBase(this.k, tenant))
  }

  /**
   * The call row, its conversation on the voice channel and the carrier's first step, in one transaction:
   * the call exists iff it will be placed. The simulated carrier's steps are jobs; Twilio's placement is a
   * job too (the carrier is called after the commit, never twice: see carriers/twilio-voice.ts).
   */
  async create(principal: Principal, body: CreateVoiceCallBodyT): Promise<VoiceCallT> {
    const to = e164Or422(body.to, '/body/to')
    const number = await referenced('/body/from_number_id', () => numberOr404(this.k.db, principal, body.from_number_id))
    const named = !!(body.bot_id || body.agent_id || body.greeting)
    const answer = named ? answerOf(body) : { type: number.answer_type, id: number.answer_id, greeting: number.greeting }
    await checkAnswerer(this.services, principal, answer.type, answer.id, named)
    if (to === number.e164) throw new AppError('validation_failed', 'A number cannot call itself.', { errors: [{ pointer: '/body/to', detail: 'the same as the from number' }] })
    const twilio = number.carrier === 'twilio' ? await this.carriers.twilio(principal) : null
    if (number.carrier === 'twilio' && !twilio) throw new AppError('unprocessable', `Number ${number.id} is on Twilio, but the workspace has no Twilio account configured.`)
    const now = this.k.clock.now()
    const row = this.row(principal, number, to, body, answer, iso(now))
    return this.k.transaction(principal, async (tx) => {
      const { conversationId } = await this.services.inbox.turns.open(tx, principal, {
        channel: 'voice',
        contact: { phone: to },
        subject: `Call to ${to}`,
        metadata: { call_id: row.id },
      })
      row.conversation_id = conversationId
      await repo.insertCall(tx, row)
      const view = callView(row, apiBase(this.k, principal))
      await this.k.events.emit(tx, principal, 'call.queued', view)
      if (twilio) await twilio.queuePlacement(tx, principal, row)
      else {
        const step = nextStep('queued', outcomeOf(to))!
        const payload: SimStepPayload = { workspace_id: principal.workspaceId, mode: principal.mode, call_id: row.id, seq: 0, to: step.to }
        await enqueue(tx, this.k.clock, this.simStep(), payload, { runAt: new Date(now.getTime() + step.afterMs * this.k.config.voice.simSetupScale) })
      }
      return view
    })
  }

  /**
   * An inbound call a carrier announced (its voice webhook): the call (answered at once, by what the number
   * is set to) and its conversation with the caller, once per carrier call id — a retried webhook finds it.
   */
  async receive(tenant: Tenant, number: VoiceNumbersTable, from: string, sid: string, lifecycle: CallLifecycle): Promise<VoiceCallsTable> {
    const known = await repo.findCallBySid(this.k.db, number.carrier, sid)
    if (known) return known
    const now = this.k.clock.now()
    const row: VoiceCallsTable = {
      ...this.row(tenant, number, number.e164, {}, { type: number.answer_type, id: number.answer_id, greeting: number.greeting }, iso(now)),
      direction: 'inbound',
      from_number: from,
      carrier_sid: sid,
    }
    return this.k.transaction(sideOwner(tenant), async (tx) => {
      const { conversationId } = await this.services.inbox.turns.open(tx, tenant, { channel: 'voice', contact: { phone: from }, subject: `Call from ${from}`, metadata: { call_id: row.id } })
      row.conversation_id = conversationId
      await repo.insertCall(tx, row)
      await this.k.events.emit(tx, tenant, 'call.queued', callView(row, apiBase(this.k, tenant)))
      return (await lifecycle.move(tx, tenant, row, 'in_progress', now)) ?? row
    })
  }

  private row(tenant: Tenant, number: VoiceNumbersTable, to: string, body: Partial<CreateVoiceCallBodyT>, answer: ReturnType<typeof answerOf>, now: string): VoiceCallsTable {
    return {
      id: newId('call'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      direction: 'outbound',
      number_id: number.id,
      from_number: number.e164,
      to_number: to,
      status: 'queued',
      carrier: number.carrier,
      carrier_sid: null,
      answer_type: answer.type,
      answer_id: answer.id,
      greeting: answer.greeting,
      record: body.record ? 1 : 0,
      script: toJson(body.script ?? []),
      conversation_id: '',
      queued_at: now,
      ringing_at: null,
      answered_at: null,
      ended_at: null,
      duration_seconds: null,
      billed_minutes: 0,
      end_reason: null,
      history: toJson([{ status: 'queued', at: now }]),
      transfers: '[]',
      plan_seq: 0,
      lines: '[]',
      recording_status: body.record ? 'pending' : 'none',
      recording_key: null,
      recording_duration_ms: null,
      recording_size: null,
      recording_reason: body.record ? null : 'The call was not recorded (record: false).',
      recording_url: null,
      transcript_status: 'pending',
      transcript: null,
      transcript_language: null,
      transcript_reason: null,
      metadata: toJson(body.metadata ?? {}),
      created_at: now,
      updated_at: now,
    }
  }
}
