import { sideOwner } from '../../kernel/audit/audit.js'
import type { RetentionClass } from '../../kernel/module.js'
import { deleteConversations } from './conversation-deletion.js'
import * as repo from './inbox.repository.js'

/** The inbox's classes of data a retention policy governs (docs/compliance.md "Retention"). */
export const INBOX_RETENTION: RetentionClass[] = [
  {
    name: 'messages',
    description:
      'Conversations whose last activity (last message, else last update) is older than the policy, deleted with their messages, tag links and AI drafts; and the outbox events older than the policy that copy a conversation, a message or a draft (with their webhook deliveries). Counted in conversations plus those events.',
    // Their payloads carry the contact and the words (conversation views, message text, draft text).
    events: ['conversation.created', 'conversation.updated', 'conversation.assigned', 'conversation.resolved', 'conversation.reopened', 'message.created', 'message.updated', 'ai_draft.created'],
    minimumDays: 1,
    count: (k, tenant, before) => repo.countInactiveConversations(k.db, tenant, before),
    async purge(k, tenant, before, limit) {
      const ids = await repo.inactiveConversationIds(k.db, tenant, before, limit)
      if (ids.length === 0) return 0
      return (await k.transaction(sideOwner(tenant), (tx) => deleteConversations(k, tx, tenant, ids))).conversations
    },
  },
]
