import type { AiEngine, AiTurn } from '../../kernel/ai/ai.js'
import { renderReply, type ReplyChannel } from '../../kernel/ai/render-reply.js'
import { inheritAudit } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import { claimFor } from '../../kernel/http/idempotency.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import { engineFor } from './bot-engine.js'
import { isTest, readTestConversation, TEST_CONVERSATION, TEST_MESSAGE, testTranscript } from './bot-tests.js'
import { runTurn, type TurnOutcome } from './bot-turn.js'
import { assertNotArchived, versionOr404 } from './bot-versions.service.js'
import type { BotConfig } from './bots.config.js'
import * as repo from './bots.repository.js'
import type { BotReplyT, BotTestConversationT, SendBotMessageBodyT } from './bots.schemas.js'
import { findBotOr404 } from './bots.shared.js'
import type { BotRepliesTable, BotVersionsTable } from './bots.tables.js'
import { replyView } from './bots.views.js'
import { referenced } from '../../kernel/references.js'
import { guardedPieces } from './guardrails/guardrails.stream.js'

/** Earlier messages of the conversation the engine sees besides the new one. */
const HISTORY = 10

/**
 * sendBotMessage: the published version (or the one named) answers a customer's message. The answer is
 * computed first (knowledge, AI engine, tools: nothing written yet), then the customer's message, the
 * reply, the hand-off and the reply record are written in one transaction with the request's
 * Idempotency-Key, so a retried request replays the reply instead of answering twice. Tool calls are
 * keyed by that same Idempotency-Key, so a tool server sees a retry of a crashed request as a repeat.
 */
export class BotRepliesService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /** The version that answers: the one named, else the published one (409 when none is, or the bot is archived). */
  async answering(tenant: Tenant, botId: string, versionId?: string): Promise<{ version: BotVersionsTable; config: BotConfig; name: string }> {
    const bot = await findBotOr404(this.k.db, tenant, botId)
    assertNotArchived(bot)
    const id = versionId ?? bot.published_version_id
    if (!id) {
      throw new AppError('bot_not_published', `Bot '${botId}' has no published version; publish one (POST /bots/${botId}/publish) or name one in version_id.`)
    }
    // A version named in the body is a reference (422 when it is not this bot's); the published one is ours to find.
    const version = versionId ? await referenced('/body/version_id', () => versionOr404(this.k.db, tenant, botId, id)) : await versionOr404(this.k.db, tenant, botId, id)
    const config = fromJson<BotConfig>(version.config, null as unknown as BotConfig)
    // The workspace's default region always counts for national phone numbers, beside the guardrails' own
    // (read only when phone numbers are masked at all).
    const pii = config.guardrails.pii_masking
    const region = pii.phone_numbers ? await this.services.workspaces.defaultRegion(tenant) : null
    if (region && !pii.phone_regions.includes(region)) config.guardrails = { ...config.guardrails, pii_masking: { ...pii, phone_regions: [...pii.phone_regions, region] } }
    return { version, config, name: bot.name }
  }

  /**
   * A turn of the published version that writes nothing: for channels that keep their own record (a phone
   * call writes its transcript to the conversation when it ends; a channel's bot posts the answer itself).
   * `scope` keys its tool calls; `live.onDelta` gets the reply as it is produced, as `send` streams it.
   */
  async answer(tenant: Tenant, botId: string, transcript: AiTurn[], scope: string, live: { onDelta?: (text: string) => void } = {}): Promise<TurnOutcome> {
    const { config } = await this.answering(tenant, botId)
    const question = transcript.at(-1)?.text ?? ''
    const stream = streamed(config, live.onDelta)
    const outcome = await runTurn(this.k, this.services, { tenant, botId, config, engine: stream.engine(engineFor(this.k, config.ai.provider)), transcript, question, scope, conversationId: null })
    stream.finish(outcome.content)
    return outcome
  }

  /**
   * The record of an answer a channel posted itself (a channel's bot, channels/channel-bot.service.ts), in
   * the caller's transaction: the reply as sendBotMessage keeps it, and `bot.handoff` when it handed off.
   */
  async recordChannelReply(
    tx: Tx,
    tenant: Tenant,
    r: { botId: string; versionId: string; outcome: TurnOutcome; conversationId: string; inboundMessageId: string; messageId: string },
  ): Promise<BotReplyT> {
    const row = replyRow(tenant, { ...r, id: newId('brep'), at: iso(this.k.clock.now()), question: null })
    await repo.insertReply(tx, row)
    const view = replyView(row)
    if (r.outcome.handoff) await this.k.events.emit(tx, tenant, 'bot.handoff', view)
    return view
  }

  /** getBotTestConversation (bot-tests.ts). */
  readTest(tenant: Tenant, botId: string, conversationId: string): Promise<BotTestConversationT> {
    return readTestConversation(this.k, tenant, botId, conversationId)
  }

  /**
   * `live.onDelta` gets the reply's text as it is produced (streamBotMessage): the engine's pieces when it
   * streams (OpenAI-compatible), word by word with terms, profanity and personal data masked
   * (guardrails.stream.ts), else the final reply at once. Pieces are provisional — the rules that judge the whole answer run on
   * it — so the returned reply's `content` is what was sent.
   */
  async send(principal: Principal, botId: string, body: SendBotMessageBodyT, live: { onDelta?: (text: string) => void } = {}): Promise<BotReplyT> {
    const tenant: Tenant = inheritAudit(principal, { workspaceId: principal.workspaceId, mode: principal.mode })
    const { version, config } = await this.answering(tenant, botId, body.version_id)
    const test = isTest(body)
    const inConversation = body.conversation_id
    const conversation = inConversation && !test ? await referenced('/body/conversation_id', () => this.services.inbox.turns.context(tenant, inConversation, HISTORY)) : null
    const earlier = inConversation && test ? await testTranscript(this.k, tenant, botId, inConversation, HISTORY) : (conversation?.transcript ?? [])
    const stream = streamed(config, live.onDelta)
    const engine = stream.engine(engineFor(this.k, config.ai.provider))
    const id = newId('brep')
    const claim = claimFor(principal)
    const outcome = await runTurn(this.k, this.services, {
      tenant,
      botId,
      config,
      engine,
      transcript: [...earlier, { role: 'customer', text: body.content }],
      question: body.content,
      scope: claim ? `${claim.apiKeyId}:${claim.key}` : id,
      conversationId: conversation?.id ?? null,
      test,
    })
    stream.finish(outcome.content)
    const record = (conversationId: string, inbound: string, message: string, at: string): BotRepliesTable =>
      replyRow(tenant, { id, botId, versionId: version.id, outcome, conversationId, inboundMessageId: inbound, messageId: message, at, question: test ? body.content : null })
    if (test) {
      // Only the reply record: no inbox conversation, no hand-off applied, no event (see bot-tests.ts).
      const row = record(inConversation ?? newId(TEST_CONVERSATION), newId(TEST_MESSAGE), newId(TEST_MESSAGE), iso(this.k.clock.now()))
      return this.k.transaction(principal, async (tx) => {
        await repo.insertReply(tx, row)
        return replyView(row)
      })
    }
    const handoff = outcome.handoff ? { assigneeId: config.handoff.action === 'assign' ? config.handoff.assignee_id : null, tag: config.handoff.tag } : null
    const channel = conversation?.channel ?? ((body.channel ?? config.channels[0] ?? 'chat') as 'chat')
    // The reply's `content` is the API's view (markers citing `citations`, as data beside it); the message the
    // customer reads is its channel's rendering: links on chat and email, none of the markup on voice.
    const links = outcome.citations.map((c) => ({ title: c.citation.title, url: c.citation.source_url }))
    const exchange = await this.services.inbox.turns.prepare(tenant, {
      conversationId: conversation?.id ?? null,
      channel,
      contact: body.contact,
      inbound: body.content,
      outbound: { content: renderReply(outcome.content, links, replyChannelOf(channel)), author: { type: 'bot', id: botId } },
      handoff,
    })
    return this.k.transaction(principal, async (tx) => {
      const { conversationId } = await this.services.inbox.turns.write(tx, tenant, exchange)
      const row = record(conversationId, exchange.inbound.id, exchange.outbound.id, exchange.outbound.created_at)
      await repo.insertReply(tx, row)
      const view = replyView(row)
      if (outcome.handoff) await this.k.events.emit(tx, tenant, 'bot.handoff', view)
      return view
    })
  }
}

/** A reply's record; `question` is kept only for a test exchange (it has no inbox message to point at). */
function replyRow(
  tenant: Tenant,
  r: { id: string; botId: string; versionId: string; outcome: TurnOutcome; conversationId: string; inboundMessageId: string; messageId: string; at: string; question: string | null },
): BotRepliesTable {
  const { outcome } = r
  return {
    id: r.id,
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    bot_id: r.botId,
    version_id: r.versionId,
    conversation_id: r.conversationId,
    inbound_message_id: r.inboundMessageId,
    message_id: r.messageId,
    content: outcome.content,
    confidence: outcome.confidence,
    grounded: outcome.grounded ? 1 : 0,
    citations: toJson(outcome.citations),
    tool_calls: toJson(outcome.toolCalls),
    guardrails: toJson(outcome.fired),
    handoff: outcome.handoff ? toJson({ reason: outcome.handoff }) : null,
    provider: outcome.provider,
    model: outcome.model,
    created_at: r.at,
    test: r.question !== null ? 1 : 0,
    question: r.question,
  }
}

/**
 * A reply's live text for `onDelta` (none when it is not given): the engine's pieces when it streams
 * (OpenAI-compatible), through the guardrails that can judge a part (guardrails.stream.ts); else — an engine
 * that does not stream (builtin), or a reply that is not the engine's (blocked, fallback) — the final
 * content as one piece when the turn is over (`finish`).
 */
function streamed(config: BotConfig, onDelta: ((text: string) => void) | undefined): { engine(e: AiEngine): AiEngine; finish(content: string): void } {
  if (!onDelta) return { engine: (e) => e, finish: () => {} }
  let any = false
  const pieces = guardedPieces(config.guardrails, onDelta)
  const push = (text: string) => ((any = true), pieces.push(text))
  return {
    // Each step gets `onDelta`, so a streaming provider hands over its text as it comes.
    engine: (engine) => ({
      provider: engine.provider,
      model: engine.model,
      check: () => engine.check(),
      generate: (req) => engine.generate(req),
      respond: (req) => engine.respond({ ...req, onDelta: push }),
    }),
    finish: (content) => (any ? pieces.end() : onDelta(content)),
  }
}

/** How a conversation's channel shows a reply (kernel/ai render-reply): WhatsApp reads like SMS (plain, links tappable). */
function replyChannelOf(channel: string): ReplyChannel {
  return channel === 'whatsapp' ? 'sms' : channel === 'chat' || channel === 'email' || channel === 'sms' || channel === 'voice' ? channel : 'api'
}
