import { iso } from '../../kernel/clock.js'
import { newSecret } from '../../kernel/crypto/signature.js'
import { uniqueConflict } from '../../kernel/db/unique-conflict.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import type { ToolInputT } from '../../kernel/tools/tools.schemas.js'
import { prepareTool } from '../../kernel/tools/tools.js'
import * as repo from './bots.repository.js'
import type { BotToolT } from './bots.schemas.js'
import { findBotOr404, refreshDraftHash } from './bots.shared.js'
import type { BotToolsTable } from './bots.tables.js'
import { botView, toolView } from './bots.views.js'

/** Tools a bot may call, at most this many (each one's description and schema go to the model every turn). */
export const MAX_TOOLS = 20

/** The tools of a bot's draft: attached here, frozen into the next version, called when a customer writes. */
export class BotToolsService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, botId: string, q: { cursor?: string; limit?: number }): Promise<PageResult<BotToolT>> {
    await findBotOr404(this.k.db, tenant, botId)
    return this.k.paginate({
      list: 'listBotTools',
      tenant,
      filters: { bot: botId },
      query: q,
      fetch: (page) => repo.listTools(this.k.db, tenant, botId, page),
      key: (r) => r.id,
      view: toolView,
    })
  }

  /**
   * Validated (JSON Schema of the parameters, a registered built-in, the URL against the outbound address
   * rules) and sealed (header values) before the transaction. An http tool gets its own signing secret,
   * shown once in this response, so the tool server can tell our calls from anyone else's.
   */
  async attach(principal: Principal, botId: string, body: ToolInputT): Promise<BotToolT & { signing_secret: string | null }> {
    await findBotOr404(this.k.db, principal, botId)
    const id = newId('tool')
    const stored = await prepareTool(this.k, body, { ownerId: id })
    const secret = stored.type === 'http' ? newSecret() : null
    const row: BotToolsTable = {
      id,
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      bot_id: botId,
      type: stored.type,
      name: stored.name,
      description: stored.description,
      parameters: stored.parameters,
      url: stored.url,
      method: stored.method,
      headers_sealed: stored.headers_sealed,
      header_names: stored.header_names ?? '[]',
      timeout_ms: stored.timeout_ms,
      signing_secret_sealed: secret ? this.k.secrets.seal(secret, id) : null,
      created_at: iso(this.k.clock.now()),
    }
    return uniqueConflict(
      () =>
        this.k.transaction(principal, async (tx) => {
          const bot = await findBotOr404(tx, principal, botId, { forUpdate: true })
          const tools = await repo.toolsOf(tx, principal, botId)
          if (tools.some((t) => t.name === row.name)) throw nameTaken(row.name)
          if (tools.length >= MAX_TOOLS) throw new AppError('too_many_tools', `A bot has at most ${MAX_TOOLS} tools; this one has ${tools.length}.`)
          await repo.insertTool(tx, row)
          const next = await refreshDraftHash(tx, principal, { ...bot, updated_at: row.created_at })
          await repo.updateBot(tx, principal, botId, { updated_at: row.created_at })
          await this.k.events.emit(tx, principal, 'bot.updated', botView(next))
          return { ...toolView(row), signing_secret: secret }
        }),
      'tool_name_taken',
      [{ constraint: /bot_tools_name|bot_tools\.bot_id/, pointer: '/body/name', detail: 'the bot already has a tool with this name', message: `The bot already has a tool named '${row.name}'.` }],
    )
  }
}

const nameTaken = (name: string) =>
  new AppError('tool_name_taken', `The bot already has a tool named '${name}'.`, { errors: [{ pointer: '/body/name', detail: 'the bot already has a tool with this name' }] })
