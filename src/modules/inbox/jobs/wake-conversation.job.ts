import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import * as repo from '../inbox.repository.js'
import type { InboxConversationsTable } from '../inbox.tables.js'
import { conversationView } from '../inbox.views.js'

export interface WakePayload {
  workspace_id: string
  mode: Mode
  conversation_id: string
  /** The snoozed_until this job was enqueued for. */
  until: string
}

/**
 * At a snooze's end: the conversation opens again (conversation.updated) — only if it is still snoozed
 * until that very time. An inbound message that woke it earlier, a new snooze, a resolve or a deletion
 * leave the job with nothing to do, so a stale job is harmless and none needs cancelling.
 */
export const wakeConversationJob = (k: Kernel) =>
  defineJob<WakePayload>({
    name: 'inbox.wake-conversation',
    retrySchedule: [5, 30, 120, 600],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      await k.transaction(sideOwner(tenant), async (tx) => {
        const row = await repo.findConversation(tx, tenant, p.conversation_id, { forUpdate: k.database.engine === 'postgres' })
        if (!row || row.status !== 'snoozed' || row.snoozed_until !== p.until) return
        const patch: Partial<InboxConversationsTable> = { status: 'open', snoozed_until: null, updated_at: iso(k.clock.now()) }
        await repo.updateConversation(tx, tenant, row.id, patch)
        await k.events.emit(tx, tenant, 'conversation.updated', conversationView({ ...row, ...patch }))
      })
    },
  })
