import { renderReply } from '../../kernel/ai/render-reply.js'
import { inheritAudit, sideOwner } from '../../kernel/audit/audit.js'
import { defineJob, enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Executor, Tx } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './channels.repository.js'
import type { ChannelsTable } from './channels.tables.js'
import { OutOfHours } from './business-hours/out-of-hours.js'
import { BotDraft } from './web-chat/web-chat.drafts.js'

export interface BotReplyPayload {
  workspace_id: string
  mode: Tenant['mode']
  channel_id: string
  conversation_id: string
  /** The customer's message the bot answers (its receipt records the answer: at most one). */
  provider_sid: string
}

/** Turns of the conversation the bot reads (as a bot's live exchange does). */
const HISTORY = 10

/**
 * The channel's bot answers customers first: after a customer's message commits, a job asks the bot's
 * published version (`services.bots.replies.answer`: knowledge, tools, guardrails, hand-off rules) and
 * posts its answer as the bot's outbound message, which the channel sends like any reply. The bot stops in
 * a conversation once it handed off (its rules said so: the answer was not grounded, the customer asked for
 * a person, …), once someone is assigned, or when the conversation is resolved.
 */
export class ChannelBotService {
  readonly replyJob: JobDefinition<BotReplyPayload>
  private readonly outOfHours: OutOfHours

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    this.outOfHours = new OutOfHours(k, services)
    this.replyJob = defineJob<BotReplyPayload>({ name: 'channels.bot-reply', retrySchedule: [5, 30], run: (p, ctx) => this.reply(p, ctx) })
  }

  /** In the customer's message transaction: queue the bot's answer when the channel has a bot still answering there. */
  async queue(tx: Executor, tenant: Tenant, p: Omit<BotReplyPayload, 'workspace_id' | 'mode'>): Promise<boolean> {
    const link = await repo.findConversationLink(tx, tenant, p.conversation_id)
    if (link?.bot_state === 'handed_off') return false
    await enqueue(tx, this.k.clock, this.replyJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, ...p })
    return true
  }

  /**
   * In the transaction of a customer's message that asks something (not a consent keyword, not an
   * automatic mail): the channel's bot answers it, or, with no bot answering there, the out-of-hours reply
   * tells the customer when people are back (business-hours/out-of-hours.ts).
   */
  async afterCustomerMessage(tx: Tx, tenant: Tenant, channel: ChannelsTable, p: Omit<BotReplyPayload, 'workspace_id' | 'mode' | 'channel_id'>): Promise<void> {
    if (channel.bot_id && (await this.queue(tx, tenant, { channel_id: channel.id, ...p }))) return
    await this.outOfHours.reply(tx, tenant, channel, p.conversation_id)
  }

  /** `job`: the job's context, what its changes are audited as. */
  private async reply(p: BotReplyPayload, job: object): Promise<void> {
    const tenant: Tenant = inheritAudit(job, { workspaceId: p.workspace_id, mode: p.mode })
    const [channel, link, receipt] = await Promise.all([
      repo.findChannel(this.k.db, tenant, p.channel_id),
      repo.findConversationLink(this.k.db, tenant, p.conversation_id),
      repo.findReceipt(this.k.db, tenant, p.channel_id, p.provider_sid),
    ])
    if (!channel?.bot_id || !link || link.bot_state === 'handed_off' || !receipt || receipt.bot_reply_id) return
    const conversation = await this.services.inbox.conversations.get(tenant, p.conversation_id).catch(() => null)
    if (!conversation || conversation.assignee_id !== null || conversation.status === 'resolved') return
    const botId = channel.bot_id
    // A bot unpublished or archived since answers nothing; the conversation waits for a person.
    const answering = await this.services.bots.replies.answering(tenant, botId).catch(() => null)
    if (!answering) return
    const context = await this.services.inbox.turns.context(tenant, p.conversation_id, HISTORY)
    // A web chat visitor watches the answer being written (web-chat/web-chat.drafts.ts); the posted message stays the answer.
    const draft = channel.type === 'web_chat' ? new BotDraft(this.k, tenant, p.conversation_id, `${channel.id}:${p.provider_sid}`) : null
    const transcript = context.transcript.map((t) => ({ role: t.role, text: t.text }))
    const outcome = await this.services.bots.replies.answer(tenant, botId, transcript, `${channel.id}:${p.provider_sid}`, { onDelta: draft?.push }).catch(discarding(draft))
    const links = outcome.citations.map((c) => ({ title: c.citation.title, url: c.citation.source_url }))
    const handoff = answering.config.handoff
    const posted = await this.k
      .transaction(sideOwner(tenant), async (tx) => {
        // At most one answer per customer message, whatever runs again.
        if (!(await repo.claimBotReply(tx, tenant, p.channel_id, p.provider_sid, 'pending'))) return null
        const { messageId } = await this.services.inbox.turns.post(tx, tenant, p.conversation_id, renderReply(outcome.content, links, channel.type === 'web_chat' ? 'chat' : 'sms'), {
          type: 'bot',
          id: botId,
        })
        await repo.setBotReply(tx, tenant, p.channel_id, p.provider_sid, messageId)
        // The reply's record, as sendBotMessage keeps it (listBotReplies, analytics), and `bot.handoff` when it handed off.
        await this.services.bots.replies.recordChannelReply(tx, tenant, {
          botId,
          versionId: answering.version.id,
          outcome,
          conversationId: p.conversation_id,
          inboundMessageId: receipt.message_id,
          messageId,
        })
        if (outcome.handoff) {
          await repo.setBotState(tx, tenant, p.conversation_id, 'handed_off')
          // Handed to people who are not there: the customer learns when they are back.
          await this.outOfHours.reply(tx, tenant, channel, p.conversation_id)
        }
        return messageId
      })
      .catch(discarding(draft))
    // Not posted by this run (another run answered first): the widget drops the draft.
    if (posted) draft?.posted(posted)
    else draft?.discard()
    if (!posted || !outcome.handoff) return
    // The bot's hand-off rule: assign to its member, and/or tag (each its own change, with its own event).
    if (handoff.action === 'assign' && handoff.assignee_id)
      await this.services.inbox.conversations
        .assign(tenant, p.conversation_id, handoff.assignee_id)
        .catch((err) => this.k.log.warn({ err: (err as Error).message }, 'channel bot hand-off: assignment failed'))
    if (handoff.tag && !conversation.tags.includes(handoff.tag)) {
      await this.services.inbox.conversations
        .update(tenant, p.conversation_id, { tags: [...conversation.tags, handoff.tag] })
        .catch((err) => this.k.log.warn({ err: (err as Error).message }, 'channel bot hand-off: tagging failed'))
    }
  }
}

/** A failed answer drops its draft from the visitor's widget (a retry writes it again), then fails the job. */
function discarding(draft: BotDraft | null) {
  return (err: unknown): never => {
    draft?.discard()
    throw err
  }
}
