import type { Executor } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './inbox.repository.js'

/**
 * Deletes conversations with everything the inbox keys by them (retention, erasure) and says so in the same
 * transaction: `conversation.deleted` for each one that was there. Other modules keep things of their own for
 * a conversation (a channel's stored media, its e-mail threading) and forget them on that event, so nothing
 * outlives the conversation, whichever path deleted it.
 */
export async function deleteConversations(k: Kernel, tx: Executor, tenant: Tenant, ids: string[]): Promise<{ conversations: number; messages: number; drafts: number }> {
  const removed = await repo.deleteConversations(tx, tenant, ids)
  for (const id of removed.deleted) await k.events.emit(tx, tenant, 'conversation.deleted', { id, object: 'conversation', deleted: true })
  return removed
}
