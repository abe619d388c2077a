import { iso } from '../../kernel/clock.js'
import { isUniqueViolation, toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { RealCarrier, VoiceCarriers } from './voice-carriers.js'
import { checkAnswerer } from './voice-answerer.js'
import * as repo from './voice.repository.js'
import type { ListVoiceNumbersQueryT, ProvisionVoiceNumberBodyT, ReleasedVoiceNumberT, UpdateVoiceNumberBodyT, VoiceNumberT } from './voice.schemas.js'
import { numberOr404 } from './voice.shared.js'
import { simulatedRange } from './simulated/sim-numbers.js'
import type { Answerer, VoiceNumbersTable } from './voice.tables.js'
import { numberView } from './voice.views.js'

/** Two provisioning requests may pick the same free number; the loser takes the next one. */
const PICK_ATTEMPTS = 5

/** What answers a number or call: a bot, an agent, or the greeting alone (422 when both are named). */
export function answerOf(body: { bot_id?: string; agent_id?: string; greeting?: string }): { type: Answerer; id: string | null; greeting: string | null } {
  if (body.bot_id && body.agent_id) {
    throw new AppError('validation_failed', 'Name a bot or an agent to answer, not both.', { errors: [{ pointer: '/body/agent_id', detail: 'only one of bot_id and agent_id' }] })
  }
  if (body.bot_id) return { type: 'bot', id: body.bot_id, greeting: body.greeting ?? null }
  if (body.agent_id) return { type: 'agent', id: body.agent_id, greeting: body.greeting ?? null }
  return { type: 'greeting', id: null, greeting: body.greeting ?? null }
}

/**
 * What answers a number after an update: a bot or agent named replaces the other; one set to null leaves
 * the greeting alone answering; the greeting changes only when given.
 */
export function nextAnswer(row: Pick<VoiceNumbersTable, 'answer_type' | 'answer_id' | 'greeting'>, body: UpdateVoiceNumberBodyT): { type: Answerer; id: string | null; greeting: string | null } {
  const greeting = body.greeting !== undefined ? body.greeting : row.greeting
  if (body.bot_id || body.agent_id) return { ...answerOf({ bot_id: body.bot_id ?? undefined, agent_id: body.agent_id ?? undefined }), greeting }
  const dropped = (body.bot_id === null && row.answer_type === 'bot') || (body.agent_id === null && row.answer_type === 'agent')
  return dropped ? { type: 'greeting', id: null, greeting } : { type: row.answer_type, id: row.answer_id, greeting }
}

/** Numbers: provisioned from the tenant's carrier (simulated ranges reserved for fiction, or Twilio). */
export class VoiceNumbersService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly carriers: VoiceCarriers,
  ) {}

  list(tenant: Tenant, q: ListVoiceNumbersQueryT): Promise<PageResult<VoiceNumberT>> {
    const { cursor: _c, limit: _l, ...filters } = q
    return this.k.paginate({ list: 'listVoiceNumbers', tenant, filters, query: q, fetch: (page) => repo.listNumbers(this.k.db, tenant, q, page), key: (r) => r.id, view: numberView })
  }

  async get(tenant: Tenant, id: string): Promise<VoiceNumberT> {
    return numberView(await numberOr404(this.k.db, tenant, id))
  }

  /** Renames a number (at the carrier too) or changes what answers its calls; calls already answered keep theirs. */
  async update(principal: Principal, id: string, body: UpdateVoiceNumberBodyT): Promise<VoiceNumberT> {
    const row = await numberOr404(this.k.db, principal, id)
    const answer = nextAnswer(row, body)
    const friendlyName = body.friendly_name ?? row.friendly_name
    const changed = friendlyName !== row.friendly_name || answer.type !== row.answer_type || answer.id !== row.answer_id || answer.greeting !== row.greeting
    if (!changed) return numberView(row)
    if (answer.type !== row.answer_type || answer.id !== row.answer_id) await checkAnswerer(this.services, principal, answer.type, answer.id)
    if (friendlyName !== row.friendly_name && row.carrier === 'twilio') await (await this.carrierOf(principal, row)).rename(row, friendlyName)
    return this.k.transaction(principal, async (tx) => {
      const patch = { friendly_name: friendlyName, answer_type: answer.type, answer_id: answer.id, greeting: answer.greeting, updated_at: iso(this.k.clock.now()) }
      await repo.updateNumber(tx, principal, id, patch)
      const view = numberView({ ...row, ...patch })
      await this.k.events.emit(tx, principal, 'voice_number.updated', view)
      return view
    })
  }

  /**
   * Gives the number back to its carrier, then forgets it; past calls keep their phone numbers. Twilio
   * first: if the process dies between the two, a retry finds the number gone there and completes here.
   */
  async release(principal: Principal, id: string): Promise<ReleasedVoiceNumberT> {
    const row = await numberOr404(this.k.db, principal, id)
    const inUse = () => new AppError('number_in_use', `A call from or to ${row.e164} is still queued, ringing or in progress; release the number when it has ended.`)
    if (await repo.hasLiveCall(this.k.db, principal, id)) throw inUse()
    if (row.carrier === 'twilio') await (await this.carrierOf(principal, row)).release(row)
    return this.k.transaction(principal, async (tx) => {
      if (await repo.hasLiveCall(tx, principal, id)) throw inUse()
      await repo.deleteNumber(tx, principal, id)
      await this.k.events.emit(tx, principal, 'voice_number.released', numberView(row))
      return { id, object: 'voice_number' as const, phone_number: row.e164, deleted: true as const }
    })
  }

  private async carrierOf(principal: Principal, row: VoiceNumbersTable): Promise<RealCarrier> {
    const twilio = await this.carriers.twilio(principal)
    if (!twilio)
      throw new AppError(
        'carrier_not_configured',
        `${row.e164} is a Twilio number and the workspace has no Twilio account configured any more; configure it again (PATCH /workspaces/{id} \`voice\`) to change or release the number.`,
      )
    return twilio
  }

  async provision(principal: Principal, body: ProvisionVoiceNumberBodyT): Promise<VoiceNumberT> {
    const answer = answerOf(body)
    await checkAnswerer(this.services, principal, answer.type, answer.id)
    const twilio = await this.carriers.twilio(principal)
    const now = iso(this.k.clock.now())
    const base = (e164: string, area: string | null): VoiceNumbersTable => ({
      id: newId('num'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      e164,
      country: body.country,
      area_code: area,
      friendly_name: body.friendly_name ?? e164,
      capabilities: toJson({ voice: true, sms: false }),
      carrier: 'simulated',
      carrier_sid: null,
      answer_type: answer.type,
      answer_id: answer.id,
      greeting: answer.greeting,
      created_at: now,
      updated_at: now,
    })
    if (twilio) {
      const row = base('', body.area_code ?? null)
      const bought = await twilio.provision(row, body.country, body.area_code ?? null)
      return this.insert(principal, { ...row, ...bought })
    }
    const range = simulatedRange(body.country, body.area_code ?? null)
    for (let attempt = 0; ; attempt++) {
      const taken = await repo.takenNumbers(this.k.db, 'simulated', principal.mode, range.prefix)
      let free: string | null = null
      for (const candidate of range.candidates())
        if (!taken.has(candidate)) {
          free = candidate
          break
        }
      if (!free) throw new AppError('number_not_available', `Every fictional number of area ${range.area} in ${body.country} is taken; try another area_code.`)
      try {
        return await this.insert(principal, base(free, range.area))
      } catch (err) {
        if (!isUniqueViolation(err) || attempt + 1 >= PICK_ATTEMPTS) throw err
      }
    }
  }

  private insert(principal: Principal, row: VoiceNumbersTable): Promise<VoiceNumberT> {
    return this.k.transaction(principal, async (tx) => {
      await repo.insertNumber(tx, row)
      const view = numberView(row)
      await this.k.events.emit(tx, principal, 'voice_number.provisioned', view)
      return view
    })
  }
}
