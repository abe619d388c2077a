import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { DataSubject, ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { AiDraftsService } from './ai-drafts.service.js'
import { ConversationTurnsService } from './conversation-turns.service.js'
import { ConversationsService } from './conversations.service.js'
import { InboxTagsService } from './inbox-tags.service.js'
import * as repo from './inbox.repository.js'
import { MessagesService } from './messages.service.js'
import { InboxWorkingService } from './inbox-working.service.js'
import { wakeConversationJob, type WakePayload } from './jobs/wake-conversation.job.js'
import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import { ReplyTemplatesService } from './reply-templates.service.js'

/** `services.inbox`: one service per resource, e.g. `services.inbox.conversations.list(tenant, query)`. */
export class InboxService {
  readonly conversations: ConversationsService
  readonly messages: MessagesService
  readonly aiDrafts: AiDraftsService
  readonly replyTemplates: ReplyTemplatesService
  readonly tags: InboxTagsService
  /** Exchanges other modules write (a bot's answer to a contact), with the inbox's own effects. */
  readonly turns: ConversationTurnsService
  /** Read state, counts, search, snooze. */
  readonly working: InboxWorkingService
  readonly jobs: { wake: JobDefinition<WakePayload> }

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.conversations = new ConversationsService(k, services, () => this.working)
    this.messages = new MessagesService(k, services)
    this.aiDrafts = new AiDraftsService(k, services)
    this.replyTemplates = new ReplyTemplatesService(k)
    this.tags = new InboxTagsService(k)
    this.turns = new ConversationTurnsService(k, services)
    this.jobs = { wake: wakeConversationJob(k) }
    this.working = new InboxWorkingService(k, this.jobs.wake)
  }

  /** The data subject's conversations (its contact email, phone or external id): other modules' records keyed by conversation. */
  subjectConversationIds(tenant: Tenant, subject: DataSubject): Promise<string[]> {
    return repo.conversationIdsOfSubject(this.k.db, tenant, subject)
  }
}

/** The module's health hook: the tables answer, and the kernel's AI engine is configured. */
export async function inboxHealth(k: Kernel): Promise<ModuleHealth> {
  await repo.probe(k.db)
  const ai = k.ai.check()
  return { status: ai.status, ...(ai.detail ? { detail: ai.detail } : {}), ai_provider: k.ai.provider, ai_model: k.ai.model }
}

/** The module's usage hook: messages and AI drafts per UTC day, for the workspace usage report. */
export async function inboxUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const [messages, drafts] = await Promise.all([countPerDay(k.db, tenant, 'inbox_messages', from, to), countPerDay(k.db, tenant, 'inbox_ai_drafts', from, to)])
  return [...messages.map((r) => ({ ...r, metric: 'messages' })), ...drafts.map((r) => ({ ...r, metric: 'ai_drafts' }))]
}

declare module '../../kernel/services.js' {
  interface Services {
    inbox: InboxService
  }
}
