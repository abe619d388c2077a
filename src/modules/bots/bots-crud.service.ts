import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { DEFAULT_GUARDRAILS } from './guardrails/guardrails.schemas.js'
import { configHash, DEFAULT_AI, DEFAULT_HANDOFF, DEFAULT_INSTRUCTIONS, draftConfig } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotT, CreateBotBodyT, UpdateBotBodyT } from './bots.schemas.js'
import { checkReferences, findBotOr404, refreshDraftHash } from './bots.shared.js'
import type { BotsTable } from './bots.tables.js'
import { botView, deletedBotView } from './bots.views.js'

/** Bots: the draft's settings, archive, delete. Versions, tools and guardrails have their own services. */
export class BotsCrudService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  list(tenant: Tenant, q: { cursor?: string; limit?: number; status?: BotT['status'] }): Promise<PageResult<BotT>> {
    return this.k.paginate({
      list: 'listBots',
      tenant,
      filters: { status: q.status },
      query: q,
      fetch: (page) => repo.listBots(this.k.db, tenant, { ...page, status: q.status }),
      key: (r) => r.id,
      view: botView,
    })
  }

  async get(tenant: Tenant, id: string): Promise<BotT> {
    return botView(await findBotOr404(this.k.db, tenant, id))
  }

  async create(tenant: Tenant, body: CreateBotBodyT): Promise<BotT> {
    const handoff = { ...DEFAULT_HANDOFF, ...body.handoff }
    await checkReferences(this.k, this.services, tenant, { knowledge_base_ids: body.knowledge_base_ids, handoff, ai: body.ai })
    const now = iso(this.k.clock.now())
    const row: BotsTable = {
      id: newId('bot'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      description: body.description ?? null,
      instructions: body.instructions ?? DEFAULT_INSTRUCTIONS,
      language: body.language ?? 'en',
      channels: toJson(body.channels ?? ['chat']),
      knowledge_base_ids: toJson(body.knowledge_base_ids ?? []),
      handoff: toJson(handoff),
      greeting: body.greeting ?? null,
      ai: toJson({ ...DEFAULT_AI, ...body.ai }),
      guardrails: toJson(DEFAULT_GUARDRAILS),
      metadata: toJson(body.metadata ?? {}),
      draft_hash: '',
      archived: 0,
      published_version_id: null,
      published_at: null,
      published_hash: null,
      version_count: 0,
      created_at: now,
      updated_at: now,
    }
    row.draft_hash = configHash(draftConfig(row, []))
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertBot(tx, row)
      const view = botView(row)
      await this.k.events.emit(tx, tenant, 'bot.created', view)
      return view
    })
  }

  /** Edits the draft: customers keep talking to the published version until the next publish. */
  async update(tenant: Tenant, id: string, body: UpdateBotBodyT): Promise<BotT> {
    const current = await findBotOr404(this.k.db, tenant, id)
    const handoff = body.handoff ? { ...draftConfig(current, []).handoff, ...body.handoff } : undefined
    await checkReferences(this.k, this.services, tenant, { knowledge_base_ids: body.knowledge_base_ids, handoff, ai: body.ai })
    return this.k.transaction(tenant, async (tx) => {
      const row = await findBotOr404(tx, tenant, id, { forUpdate: true })
      const patch: Partial<BotsTable> = { updated_at: iso(this.k.clock.now()) }
      if (body.name !== undefined) patch.name = body.name
      if (body.description !== undefined) patch.description = body.description
      if (body.instructions !== undefined) patch.instructions = body.instructions
      if (body.language !== undefined) patch.language = body.language
      if (body.channels !== undefined) patch.channels = toJson(body.channels)
      if (body.knowledge_base_ids !== undefined) patch.knowledge_base_ids = toJson(body.knowledge_base_ids)
      if (handoff) patch.handoff = toJson({ ...draftConfig(row, []).handoff, ...body.handoff })
      if (body.greeting !== undefined) patch.greeting = body.greeting
      if (body.ai !== undefined) patch.ai = toJson({ ...draftConfig(row, []).ai, ...body.ai })
      if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
      if (body.archived !== undefined) patch.archived = body.archived ? 1 : 0
      await repo.updateBot(tx, tenant, id, patch)
      const next = await refreshDraftHash(tx, tenant, { ...row, ...patch })
      const view = botView(next)
      await this.k.events.emit(tx, tenant, 'bot.updated', view)
      return view
    })
  }

  /**
   * A published bot answers customers: it must be archived first (it then stops answering), so a bot with
   * live traffic is never deleted by a single mistaken call. Its messages stay in the inbox.
   */
  async delete(tenant: Tenant, id: string): Promise<{ id: string; object: 'bot'; deleted: true }> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await findBotOr404(tx, tenant, id, { forUpdate: true })
      if (row.published_version_id && Number(row.archived) === 0) {
        throw new AppError('bot_is_live', `Bot '${id}' is published and answering customers; archive it first (PATCH {"archived": true}), then delete it.`)
      }
      await repo.deleteBot(tx, tenant, id)
      await this.k.events.emit(tx, tenant, 'bot.deleted', deletedBotView(id))
      return deletedBotView(id)
    })
  }
}
