import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { mergeGuardrails } from './guardrails/guardrails.js'
import type { UpdateBotGuardrailsBodyT } from './guardrails/guardrails.schemas.js'
import { draftConfig } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotGuardrailsSettingsT } from './bots.schemas.js'
import { findBotOr404, refreshDraftHash } from './bots.shared.js'
import { botView } from './bots.views.js'

/** The draft's guardrails: read and patched here, frozen by a version, enforced by every reply. */
export class BotGuardrailsService {
  constructor(private readonly k: Kernel) {}

  async get(tenant: Tenant, botId: string): Promise<BotGuardrailsSettingsT> {
    const bot = await findBotOr404(this.k.db, tenant, botId)
    return { object: 'bot_guardrails', bot_id: bot.id, ...draftConfig(bot, []).guardrails }
  }

  /** Fields sent replace those fields (lists are replaced whole); a value the schema cannot judge is a 422 with its pointer. */
  async update(tenant: Tenant, botId: string, body: UpdateBotGuardrailsBodyT): Promise<BotGuardrailsSettingsT> {
    return this.k.transaction(tenant, async (tx) => {
      const bot = await findBotOr404(tx, tenant, botId, { forUpdate: true })
      const guardrails = mergeGuardrails(draftConfig(bot, []).guardrails, body)
      const patch = { guardrails: toJson(guardrails), updated_at: iso(this.k.clock.now()) }
      await repo.updateBot(tx, tenant, botId, patch)
      const next = await refreshDraftHash(tx, tenant, { ...bot, ...patch })
      await this.k.events.emit(tx, tenant, 'bot.updated', botView(next))
      return { object: 'bot_guardrails', bot_id: bot.id, ...guardrails }
    })
  }
}
