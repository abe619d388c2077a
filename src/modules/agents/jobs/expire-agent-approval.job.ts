import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { toJson } from '../../../kernel/db/database.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ExpireApprovalPayload } from '../agent-run.store.js'
import * as repo from '../agents.repository.js'
import { approvalView, runSummaryView } from '../agents.views.js'

/**
 * At an approval's expiry: if nobody decided it, it expires and its run ends `expired`. The guarded
 * update makes a decision that lands at the same moment either win (approved) or lose (409) cleanly.
 */
export const expireAgentApprovalJob = (k: Kernel) =>
  defineJob<ExpireApprovalPayload>({
    name: 'agents.expire-approval',
    retrySchedule: [5, 30, 120, 600],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      await k.transaction(sideOwner(tenant), async (tx) => {
        const now = iso(k.clock.now())
        const approval = await repo.findApproval(tx, tenant, p.approval_id)
        if (!approval || approval.status !== 'pending' || approval.expires_at > now) return
        if (!(await repo.decideApproval(tx, tenant, approval.id, { status: 'expired', decided_at: now }))) return
        await repo.updateStep(tx, tenant, approval.step_id, { status: 'failed', text: 'Approval expired.', completed_at: now })
        const error = { code: 'approval_expired', detail: `Nobody approved or rejected the ${approval.tool} call before ${approval.expires_at}.` }
        await repo.transitionRun(tx, tenant, approval.run_id, ['requires_approval'], { status: 'expired', error: toJson(error), finished_at: now, updated_at: now })
        await k.events.emit(tx, tenant, 'agent_approval.resolved', approvalView({ ...approval, status: 'expired', decided_at: now }))
        const run = await repo.findRun(tx, tenant, approval.run_id)
        if (run?.status === 'expired') await k.events.emit(tx, tenant, 'agent_run.expired', runSummaryView(run, null))
      })
    },
  })
