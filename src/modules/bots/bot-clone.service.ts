import { iso } from '../../kernel/clock.js'
import { fromJson, toJson } from '../../kernel/db/database.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { configHash, draftConfig, type BotConfig, type FrozenTool } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotT } from './bots.schemas.js'
import { findBotOr404 } from './bots.shared.js'
import type { BotsTable, BotToolsTable } from './bots.tables.js'
import { versionOr404 } from './bot-versions.service.js'
import { botView } from './bots.views.js'
import { referenced } from '../../kernel/references.js'

/**
 * A new draft bot with the configuration, guardrails, knowledge links and tools of a bot's draft or of one
 * of its versions: new ids, no versions, no history. Sealed values (tool headers, signing secrets) are
 * re-sealed under the new tool ids; the signing secret itself is kept, so tool servers keep verifying.
 */
export class BotCloneService {
  constructor(private readonly k: Kernel) {}

  async clone(tenant: Tenant, botId: string, body: { name?: string; version_id?: string }): Promise<BotT> {
    const source = await findBotOr404(this.k.db, tenant, botId)
    const config: BotConfig = body.version_id
      ? fromJson<BotConfig>((await referenced('/body/version_id', () => versionOr404(this.k.db, tenant, botId, body.version_id!))).config, null as unknown as BotConfig)
      : draftConfig(source, await repo.toolsOf(this.k.db, tenant, botId))
    const now = iso(this.k.clock.now())
    const id = newId('bot')
    const tools = config.tools.map((t) => this.copyTool(tenant, id, t, now))
    const row: BotsTable = {
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name ?? `${source.name} (copy)`.slice(0, 200),
      description: source.description,
      instructions: config.instructions,
      language: config.language,
      channels: toJson(config.channels),
      knowledge_base_ids: toJson(config.knowledge_base_ids),
      handoff: toJson(config.handoff),
      greeting: config.greeting,
      ai: toJson(config.ai),
      guardrails: toJson(config.guardrails),
      metadata: source.metadata,
      draft_hash: '',
      archived: 0,
      published_version_id: null,
      published_at: null,
      published_hash: null,
      version_count: 0,
      created_at: now,
      updated_at: now,
    }
    row.draft_hash = configHash(draftConfig(row, tools))
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertBot(tx, row)
      await repo.insertTools(tx, tools)
      const view = botView(row)
      await this.k.events.emit(tx, tenant, 'bot.created', view)
      return view
    })
  }

  private copyTool(tenant: Tenant, botId: string, t: FrozenTool, now: string): BotToolsTable {
    const id = newId('tool')
    const reseal = (sealed: string | null) => (sealed === null ? null : this.k.secrets.seal(this.k.secrets.open(sealed, t.id), id))
    return {
      ...t,
      id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      bot_id: botId,
      headers_sealed: reseal(t.headers_sealed),
      signing_secret_sealed: reseal(t.signing_secret_sealed),
      created_at: now,
    }
  }
}
