import { inheritAudit } from '../../../../kernel/audit/audit.js'
import { iso } from '../../../../kernel/clock.js'
import { fromJson, toJson } from '../../../../kernel/db/database.js'
import { AppError } from '../../../../kernel/errors.js'
import { defineJob, type JobContext } from '../../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../../kernel/kernel.js'
import type { Services } from '../../../../kernel/services.js'
import type { Mode, Principal, Tenant } from '../../../../kernel/tenant.js'
import { seedSandbox } from '../sandbox-seed.js'
import * as repo from '../sandbox.repository.js'
import type { SandboxWorkspaceT } from '../sandbox.schemas.js'
import type { DeveloperSandboxWorkspacesTable } from '../sandbox.tables.js'

export interface SeedSandboxPayload {
  workspace_id: string
  mode: Mode
  sandbox_id: string
}

const RETRIES = [5, 30, 120]
const reason = (err: unknown) => (err instanceof AppError ? `${err.code}: ${err.detail}` : (err as Error).message).slice(0, 500)

/**
 * Seeds a sandbox (sandbox-seed.ts) and marks it ready. Re-runnable: the steps already recorded are
 * skipped. After the last retry the sandbox is failed with the reason; what was made stays.
 */
export function seedSandboxJob(k: Kernel, services: Services, view: (r: DeveloperSandboxWorkspacesTable) => SandboxWorkspaceT) {
  /** The final state and its event, in one transaction; only from `seeding` (a second finisher changes nothing). */
  async function finish(ctx: JobContext, row: DeveloperSandboxWorkspacesTable, patch: Partial<DeveloperSandboxWorkspacesTable>, done: Record<string, string>): Promise<void> {
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: row.workspace_id, mode: row.mode })
    const next = { ...row, ...patch, seeded: toJson(done), updated_at: iso(k.clock.now()) }
    await k.transaction(tenant, async (tx) => {
      if (!(await repo.updateSandbox(tx, tenant, row.id, next, 'seeding'))) return
      if (next.status === 'ready') await k.events.emit(tx, tenant, 'sandbox_workspace.ready', view(next))
      else await k.events.emit(tx, tenant, 'sandbox_workspace.failed', view(next))
    })
  }

  return defineJob<SeedSandboxPayload>({
    name: 'developer.sandbox-seed',
    retrySchedule: RETRIES,
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const row = await repo.findSandbox(k.db, tenant, p.sandbox_id)
      if (!row || row.status !== 'seeding') return
      const principal: Principal = inheritAudit(ctx, { workspaceId: row.sandbox_workspace_id, mode: 'test', keyId: row.api_key_id, scopes: row.api_key_scopes.split(' ').filter(Boolean) })
      const done = fromJson<Record<string, string>>(row.seeded, {})
      try {
        await seedSandbox({
          services,
          principal,
          done,
          playgroundUrl: view(row).playground_url,
          record: async () => {
            await repo.updateSandbox(k.db, tenant, row.id, { seeded: toJson(done), updated_at: iso(k.clock.now()) }, 'seeding')
          },
        })
      } catch (err) {
        if (ctx.attempt <= RETRIES.length) throw err
        await finish(ctx, row, { status: 'failed', error: reason(err) }, done)
        return
      }
      await finish(ctx, row, { status: 'ready', ready_at: iso(k.clock.now()) }, done)
    },
  })
}
