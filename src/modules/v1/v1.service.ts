import { AppError } from '../../kernel/errors.js'
import type { Services } from '../../kernel/services.js'
import type { Principal } from '../../kernel/tenant.js'
import type { AgentRunT } from '../agents/agents.schemas.js'
import type { ConversationT } from '../inbox/inbox.schemas.js'
import type { V1BotRunBodyT, V1ChatBodyT, V1ChatsQueryT } from './v1.schemas.js'

/** Deeper than this, GET /api/v1/chats answers 400: a client paging that far moves to v2's cursors. */
export const MAX_V1_OFFSET = 10_000
const DEFAULT_V1_LIMIT = 20

/** v1's chat: a conversation with the lead score as the plain number (v1 predates `{ score, factors }`). */
export function chatV1(c: ConversationT) {
  return {
    id: c.id,
    user_id: c.contact.external_id,
    channel: c.channel,
    status: c.status,
    subject: c.subject,
    lead_score: typeof c.lead_score === 'number' ? c.lead_score : c.lead_score.score,
    last_message_at: c.last_message_at,
    created_at: c.created_at,
    updated_at: c.updated_at,
  }
}

function runV1(r: AgentRunT) {
  return { run_id: r.id, bot_id: r.agent_id, chat_id: r.conversation_id, status: r.status, output: r.output?.text ?? null, created_at: r.created_at }
}

/**
 * The v1 endpoints mapped onto v2's services: every effect (messages, conversations, runs, events,
 * webhooks, audit) is v2's own, so v2 sees exactly what a v2 call would have made.
 */
export class V1Service {
  constructor(private readonly services: Services) {}

  /**
   * POST /api/v1/chat. v1 kept one running chat per user and channel: `chat_id` when given, else the newest
   * unresolved conversation of contact external id `user_id` on the channel, else a new one opened with
   * this message (createConversation), otherwise the message is added to it (sendMessage).
   */
  async chat(principal: Principal, body: V1ChatBodyT) {
    const channel = body.channel ?? 'api'
    const message = { content: body.message, direction: body.sender === 'agent' ? ('outbound' as const) : ('inbound' as const) }
    const existing = body.chat_id ?? (await this.services.inbox.conversations.openWithContact(principal, body.user_id, channel))
    if (!existing) {
      const c = await this.services.inbox.conversations.create(principal, { channel, contact: { external_id: body.user_id }, message })
      const first = await this.services.inbox.messages.list(principal, c.id, { limit: 1 })
      return { chat: chatV1(c), message_id: first.data[0]?.id ?? null, created: true }
    }
    const m = await this.services.inbox.messages.send(principal, existing, message)
    const c = await this.services.inbox.conversations.get(principal, existing)
    return { chat: chatV1(c), message_id: m.id, created: false }
  }

  /** GET /api/v1/chats: v1's offset page over v2's list (newest first); `has_more` instead of a total count. */
  async chats(principal: Principal, q: V1ChatsQueryT) {
    const offset = q.offset ?? 0
    const limit = q.limit ?? DEFAULT_V1_LIMIT
    if (offset > MAX_V1_OFFSET) {
      throw new AppError('v1_offset_too_deep', `offset is at most ${MAX_V1_OFFSET} on v1; page deeper with GET /v2/inbox/conversations and its next_cursor.`, {
        errors: [{ pointer: '/query/offset', detail: `must be at most ${MAX_V1_OFFSET}` }],
      })
    }
    const ids = await this.services.inbox.conversations.idsAt(principal, offset, limit + 1)
    const page = ids.slice(0, limit)
    const chats = await Promise.all(page.map((id) => this.services.inbox.conversations.get(principal, id)))
    return { data: chats.map(chatV1), offset, limit, has_more: ids.length > limit }
  }

  /** POST /api/v1/bot/run: createAgentRun on `bot_id`; the run is then read and driven with v2's run endpoints. */
  async botRun(principal: Principal, body: V1BotRunBodyT) {
    const run = await this.services.agents.runs.create(principal, body.bot_id, { input: body.input, ...(body.chat_id ? { conversation_id: body.chat_id } : {}) })
    return runV1(run)
  }
}
