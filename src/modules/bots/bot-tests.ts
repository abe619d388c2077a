import type { AiTurn } from '../../kernel/ai/ai.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import { invalidReference } from '../../kernel/references.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './bots.repository.js'
import type { BotTestConversationT, SendBotMessageBodyT } from './bots.schemas.js'
import { findBotOr404 } from './bots.shared.js'
import { replyView } from './bots.views.js'

// Test exchanges (docs/bots.md "Testing a bot"): the dashboard's test chat and `version_id` tries are kept
// with the bot's reply records only. Nothing goes to the inbox, so there is no conversation to hide from
// lists, counts, search, unread marks, the live stream, webhooks, lead sync or reports: those read the
// inbox and its events, and a test never reaches either. A flag on inbox conversations would need every
// one of those readers (and every future one) to filter it.

/** Prefix of a test conversation's id, and of its messages' ids (they are not inbox messages). */
export const TEST_CONVERSATION = 'btest'
export const TEST_MESSAGE = 'btmsg'

/** A test unless the caller says otherwise: trying a named version is what `version_id` is for. */
export const isTest = (body: SendBotMessageBodyT): boolean => body.test ?? body.version_id !== undefined

/** The earlier turns of a test conversation of this bot, oldest first (422 at /body/conversation_id when it is not one). */
export async function testTranscript(k: Kernel, tenant: Tenant, botId: string, conversationId: string, turns: number): Promise<AiTurn[]> {
  const rows = await repo.testReplies(k.db, tenant, botId, conversationId)
  if (rows.length === 0) {
    const inbox = conversationId.startsWith('conv_') ? ' A test exchange never writes to an inbox conversation: send `test: false` to answer in it.' : ''
    throw invalidReference('/body/conversation_id', `No test conversation '${conversationId}' of bot '${botId}'.${inbox}`)
  }
  return rows
    .flatMap((r): AiTurn[] => [
      { id: r.inbound_message_id, role: 'customer', text: r.question ?? '' },
      { id: r.message_id, role: 'agent', text: r.content },
    ])
    .slice(-turns)
}

/** getBotTestConversation: the exchange as the tester had it (404 when the bot has no such test conversation). */
export async function readTestConversation(k: Kernel, tenant: Tenant, botId: string, conversationId: string): Promise<BotTestConversationT> {
  await findBotOr404(k.db, tenant, botId)
  const rows = await repo.testReplies(k.db, tenant, botId, conversationId)
  if (rows.length === 0) throw new AppError('resource_not_found', `Bot '${botId}' has no test conversation '${conversationId}'.`)
  return {
    id: conversationId,
    object: 'bot_test_conversation',
    bot_id: botId,
    turns: rows.map((r) => ({ message: { id: r.inbound_message_id, content: r.question ?? '', created_at: r.created_at }, reply: replyView(r) })),
    created_at: rows[0].created_at,
  }
}
