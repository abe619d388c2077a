import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { BotCloneService } from './bot-clone.service.js'
import { BotGuardrailsService } from './bot-guardrails.service.js'
import { BotRepliesService } from './bot-replies.service.js'
import { BotToolsService } from './bot-tools.service.js'
import { BotVersionsService } from './bot-versions.service.js'
import { BotsCrudService } from './bots-crud.service.js'
import * as repo from './bots.repository.js'

/** `services.bots`: one service per resource, e.g. `services.bots.versions.publish(principal, id, body)`. */
export class BotsService {
  readonly bots: BotsCrudService
  readonly versions: BotVersionsService
  readonly clone: BotCloneService
  readonly tools: BotToolsService
  readonly guardrails: BotGuardrailsService
  readonly replies: BotRepliesService

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.bots = new BotsCrudService(k, services)
    this.versions = new BotVersionsService(k)
    this.clone = new BotCloneService(k)
    this.tools = new BotToolsService(k)
    this.guardrails = new BotGuardrailsService(k)
    this.replies = new BotRepliesService(k, services)
  }

  /** The tables answer, and the kernel's AI engine (bots answer through it) is configured. */
  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    const ai = this.k.ai.check()
    return { status: ai.status, ...(ai.detail ? { detail: ai.detail } : {}), ai_provider: this.k.ai.provider, ai_model: this.k.ai.model }
  }
}

/** The module's usage hook: bot replies per UTC day. */
export async function botsUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  return (await countPerDay(k.db, tenant, 'bot_replies', from, to)).map((r) => ({ day: r.day, metric: 'bot_replies', count: r.count }))
}

declare module '../../kernel/services.js' {
  interface Services {
    bots: BotsService
  }
}
