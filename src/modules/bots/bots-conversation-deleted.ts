import { type EventEnvelope, eventTenant } from '../../kernel/events/events.js'
import type { Executor } from '../../kernel/db/database.js'
import * as repo from './bots.repository.js'

/**
 * A bot's reply row copies the message it sent (its text, the tools' arguments and results, the citations): when
 * the inbox deletes a conversation (the `messages` retention policy, an erasure) its replies go in that
 * transaction, through `conversation.deleted`. Test exchanges have no inbox conversation and keep their own class.
 */
export async function forgetRepliesOfDeletedConversation(tx: Executor, event: EventEnvelope): Promise<void> {
  if (event.type !== 'conversation.deleted') return
  const tenant = eventTenant(event)
  await repo.deleteRepliesInConversations(tx, tenant, [(event.data.object as { id: string }).id])
}
