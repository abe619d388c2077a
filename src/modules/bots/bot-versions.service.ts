import { iso } from '../../kernel/clock.js'
import { toJson, type Tx } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { BotPublicationT } from './bots.events.js'
import { configHash, draftConfig } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotT, BotVersionT } from './bots.schemas.js'
import { findBotOr404 } from './bots.shared.js'
import type { BotsTable, BotVersionsTable } from './bots.tables.js'
import { botView, versionView } from './bots.views.js'
import { referenced } from '../../kernel/references.js'

/**
 * Immutable, numbered versions of a bot's configuration; publishing makes one live, rolling back makes an
 * earlier one live again. Versions are only ever inserted: history is never rewritten.
 */
export class BotVersionsService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, botId: string, q: { cursor?: string; limit?: number }): Promise<PageResult<BotVersionT>> {
    const bot = await findBotOr404(this.k.db, tenant, botId)
    return this.k.paginate({
      list: 'listBotVersions',
      tenant,
      filters: { bot: botId },
      query: q,
      fetch: (page) => repo.listVersions(this.k.db, tenant, botId, page),
      key: (r) => r.id,
      view: (r) => versionView(r, bot.published_version_id),
    })
  }

  async create(principal: Principal, botId: string, body: { note?: string }): Promise<BotVersionT> {
    return this.k.transaction(principal, async (tx) => {
      const bot = await findBotOr404(tx, principal, botId, { forUpdate: true })
      assertNotArchived(bot)
      const { version } = await this.freeze(tx, principal, bot, body.note ?? null)
      return versionView(version, bot.published_version_id)
    })
  }

  /** The named version, else the latest; a bot without versions gets its first one frozen from the draft. */
  async publish(principal: Principal, botId: string, body: { version_id?: string }): Promise<BotT> {
    return this.k.transaction(principal, async (tx) => {
      let bot = await findBotOr404(tx, principal, botId, { forUpdate: true })
      assertNotArchived(bot)
      const versionId = body.version_id
      let version = versionId ? await referenced('/body/version_id', () => versionOr404(tx, principal, botId, versionId)) : await repo.latestVersion(tx, principal, botId)
      if (!version) ({ bot, version } = await this.freeze(tx, principal, bot, 'Published from the draft'))
      // Publishing the live version again changes nothing and emits nothing.
      if (bot.published_version_id === version.id) return botView(bot)
      return this.makeLive(tx, principal, bot, version, 'bot.published')
    })
  }

  /** Makes an earlier version live again at once; the later versions stay in the history (publish them again to go forward). */
  async rollback(principal: Principal, botId: string, versionId: string): Promise<BotT> {
    return this.k.transaction(principal, async (tx) => {
      const bot = await findBotOr404(tx, principal, botId, { forUpdate: true })
      assertNotArchived(bot)
      const target = await versionOr404(tx, principal, botId, versionId)
      const live = bot.published_version_id ? await repo.findVersion(tx, principal, botId, bot.published_version_id) : undefined
      if (!live) throw new AppError('bot_not_published', `Bot '${botId}' has no live version to roll back from; publish one with POST /bots/${botId}/publish.`)
      if (Number(target.number) >= Number(live.number)) {
        throw new AppError(
          'not_an_earlier_version',
          `Version ${target.number} is not earlier than the live version ${live.number}; roll back to an earlier one, or publish it with POST /bots/${botId}/publish.`,
        )
      }
      return this.makeLive(tx, principal, bot, target, 'bot.rolled_back')
    })
  }

  /** Freezes the draft (settings, guardrails, a copy of each tool) as the next numbered version. */
  async freeze(tx: Tx, principal: Principal, bot: BotsTable, note: string | null): Promise<{ bot: BotsTable; version: BotVersionsTable }> {
    const config = draftConfig(bot, await repo.toolsOf(tx, principal, bot.id))
    const number = Number(bot.version_count) + 1
    const version: BotVersionsTable = {
      id: newId('bver'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      bot_id: bot.id,
      number,
      note,
      author_type: 'api_key',
      author_id: principal.keyId,
      config: toJson(config),
      config_hash: configHash(config),
      created_at: iso(this.k.clock.now()),
    }
    await repo.insertVersion(tx, version)
    await repo.updateBot(tx, principal, bot.id, { version_count: number })
    await this.k.events.emit(tx, principal, 'bot_version.created', versionView(version, bot.published_version_id))
    return { bot: { ...bot, version_count: number }, version }
  }

  private async makeLive(tx: Tx, tenant: Tenant, bot: BotsTable, version: BotVersionsTable, event: 'bot.published' | 'bot.rolled_back'): Promise<BotT> {
    const now = iso(this.k.clock.now())
    const patch = { published_version_id: version.id, published_at: now, published_hash: version.config_hash, updated_at: now }
    await repo.updateBot(tx, tenant, bot.id, patch)
    const view = botView({ ...bot, ...patch })
    const publication: BotPublicationT = {
      object: 'bot_publication',
      bot_id: bot.id,
      version_id: version.id,
      version_number: Number(version.number),
      previous_version_id: bot.published_version_id,
      bot: view,
    }
    await this.k.events.emit(tx, tenant, event, publication)
    return view
  }
}

export async function versionOr404(db: Parameters<typeof repo.findVersion>[0], tenant: Tenant, botId: string, id: string): Promise<BotVersionsTable> {
  const v = await repo.findVersion(db, tenant, botId, id)
  if (!v) throw notFound('version of this bot', id)
  return v
}

export function assertNotArchived(bot: BotsTable): void {
  if (Number(bot.archived) === 1) throw new AppError('bot_archived', `Bot '${bot.id}' is archived; bring it back with PATCH {"archived": false} first.`)
}
