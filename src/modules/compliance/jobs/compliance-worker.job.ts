import { inheritAudit } from '../../../kernel/audit/audit.js'
import { isUniqueViolation } from '../../../kernel/db/database.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { EVIDENCE_KINDS } from '../compliance.schemas.js'
import * as repo from '../compliance.repository.js'
import type { EvidenceService } from '../evidence.service.js'
import type { RetentionService } from '../retention.service.js'

/** How often the compliance worker runs. */
export const COMPLIANCE_INTERVAL_MS = 10 * 60_000

/**
 * The compliance module's recurring work, one job that re-queues itself: retention enforced for every
 * tenant with a policy (in batches), and yesterday's evidence reports made once per tenant with a policy
 * or any audit entry. A fixed job id keeps one instance queued however many workers start it.
 */
export const complianceWorkerJob = (k: Kernel, retention: RetentionService, evidence: EvidenceService, self: () => JobDefinition<Record<string, never>>) =>
  defineJob<Record<string, never>>({
    name: 'compliance.worker',
    retrySchedule: [60],
    async run(_, ctx) {
      const tenants = new Map<string, Tenant>()
      for (const p of await repo.allPolicies(k.db)) tenants.set(`${p.workspace_id}:${p.mode}`, inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode }))
      for (const t of await repo.tenantsWithAudit(k.db)) tenants.set(`${t.workspace_id}:${t.mode}`, inheritAudit(ctx, { workspaceId: t.workspace_id, mode: t.mode }))
      for (const tenant of tenants.values()) {
        try {
          await retention.enforce(tenant)
          for (const kind of EVIDENCE_KINDS) await evidence.daily(tenant, kind)
        } catch (err) {
          k.log.warn({ err, tenant }, 'compliance work failed for a tenant; the others go on')
        }
      }
      await scheduleNext(k, self())
    },
  })

/**
 * Queues the run of the next time slot. Its id names the slot, so every worker (and every maintenance
 * tick) asking for the same slot gets one job: the second insert is a duplicate key, ignored.
 */
export async function scheduleNext(k: Kernel, job: JobDefinition<Record<string, never>>): Promise<void> {
  const slot = Math.floor(k.clock.now().getTime() / COMPLIANCE_INTERVAL_MS) + 1
  try {
    await k.transaction(null, (tx) => enqueue(tx, k.clock, job, {}, { id: `job_compliance_${slot}`, runAt: new Date(slot * COMPLIANCE_INTERVAL_MS) }))
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
  }
}
