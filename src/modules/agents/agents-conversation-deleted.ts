import type { Executor } from '../../kernel/db/database.js'
import { type EventEnvelope, eventTenant } from '../../kernel/events/events.js'
import * as repo from './agents.repository.js'

/**
 * A run made in a conversation copies it (its input, the tools' arguments and results, the answer): when the inbox
 * deletes the conversation (the `messages` retention policy, an erasure) its runs go in that transaction, whole,
 * with their steps and approvals, as an erasure deletes them (agents.privacy.ts). A run still executing finds
 * itself gone and stops, as after an erasure.
 */
export async function forgetRunsOfDeletedConversation(tx: Executor, event: EventEnvelope): Promise<void> {
  if (event.type !== 'conversation.deleted') return
  const tenant = eventTenant(event)
  await repo.deleteRuns(tx, tenant, await repo.runIdsOfConversation(tx, tenant, (event.data.object as { id: string }).id))
}
