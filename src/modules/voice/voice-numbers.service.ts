import { iso } from '../../kernel/clock.js'
import { isUniqueViolation, toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { VoiceCarriers } from './voice-carriers.js'
import { checkAnswerer } from './voice-answerer.js'
import * as repo from './voice.repository.js'
import type { ListVoiceNumbersQueryT, ProvisionVoiceNumberBodyT, VoiceNumberT } from './voice.schemas.js'
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
      for (const candidate of range.candidates()) if (!taken.has(candidate)) { free = candidate; break }
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
