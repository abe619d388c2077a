import { inheritAudit } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { AppError } from '../../../kernel/errors.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { type EventEnvelope, eventTenant } from '../../../kernel/events/events.js'
import type { Executor } from '../../../kernel/db/database.js'
import * as repo from '../leads.repository.js'

export interface AutoCreatePayload {
  workspace_id: string
  mode: Tenant['mode']
  conversation_id: string
  threshold: number
}

/**
 * Runs in the transaction of every `message.created`: for an inbound message in a workspace (mode) that
 * set `lead_auto_create_score`, queue a check of its conversation. The check runs after the commit, so it
 * reads the score the message produced; workspaces without the setting pay one key lookup.
 */
export function autoCreateSubscriber(k: Kernel, services: Services, job: () => JobDefinition<AutoCreatePayload>) {
  return async (tx: Executor, event: EventEnvelope): Promise<void> => {
    if (event.type !== 'message.created') return
    const m = event.data.object as { conversation_id?: string; direction?: string }
    if (m.direction !== 'inbound' || !m.conversation_id) return
    const tenant = eventTenant(event)
    const threshold = await services.workspaces.leadAutoCreateScore(tenant, tx)
    if (threshold === null) return
    await enqueue(tx, k.clock, job(), { workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: m.conversation_id, threshold })
  }
}

/** A conversation whose score reached the threshold gets its lead (once: one lead per source, one per email). */
export const autoCreateLeadJob = (k: Kernel, services: Services) =>
  defineJob<AutoCreatePayload>({
    name: 'leads.auto-create',
    retrySchedule: [5, 60],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      if (await repo.findLeadBySource(k.db, tenant, 'conversation', p.conversation_id)) return
      const conv = await services.inbox.conversations.get(tenant, p.conversation_id).catch(() => null)
      const score = conv && typeof conv.lead_score === 'object' ? conv.lead_score.score : 0
      if (!conv || score < p.threshold) return
      const system: Principal = inheritAudit(ctx, { ...tenant, keyId: 'system', scopes: [] })
      try {
        await services.leads.leads.create(system, { source: 'conversation', source_id: conv.id })
      } catch (err) {
        // Made meanwhile (another message's check), or the contact's email already has a lead.
        if (err instanceof AppError && err.code === 'lead_already_exists') return
        throw err
      }
      k.log.debug({ conversation: conv.id, score, at: iso(k.clock.now()) }, 'lead created from conversation')
    },
  })
