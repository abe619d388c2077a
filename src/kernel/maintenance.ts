import { iso } from './clock.js'
import { purgeFinishedJobs } from './jobs/jobs.js'
import type { Kernel } from './kernel.js'
import type { Services } from './services.js'

const FINISHED_JOB_RETENTION_DAYS = 7

/**
 * Housekeeping every worker runs periodically: expired Idempotency-Keys (after
 * IDEMPOTENCY_RETENTION_HOURS) and succeeded jobs older than a week. Deleting the same rows from two
 * workers is harmless, so no coordination is needed.
 */
export async function runMaintenance(kernel: Kernel, services?: Services): Promise<{ idempotencyKeys: number; jobs: number }> {
  const now = kernel.clock.now().getTime()
  const cutoff = iso(new Date(now - kernel.config.idempotencyRetentionHours * 3600_000))
  const idem = await kernel.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst()
  const jobs = await purgeFinishedJobs(kernel.db, new Date(now - FINISHED_JOB_RETENTION_DAYS * 86400_000))
  if (services) for (const m of kernel.modules) await m.maintenance?.(kernel, services)
  return { idempotencyKeys: Number(idem.numDeletedRows), jobs }
}

/** Links new audit entries onto their workspaces' chains (kernel/audit): the window before sealing stays seconds. */
export async function sealAuditChains(kernel: Kernel): Promise<number> {
  let sealed = 0
  for (const ws of await kernel.audit.workspacesToSeal()) sealed += await kernel.audit.seal(ws)
  return sealed
}

/**
 * Runs the maintenance now and every `everyMs`, and seals the audit chains every `sealEveryMs`. Returns the stop:
 * no new run starts, and the runs under way finish before it resolves (a shutdown closes the database after it, so a
 * run is never cut off half-way with "driver has already been destroyed").
 */
export function scheduleMaintenance(kernel: Kernel, services?: Services, everyMs = 5 * 60_000, sealEveryMs = 2000): () => Promise<void> {
  const running = new Set<Promise<void>>()
  // Each run logs its own failure: it never rejects.
  const track = (run: Promise<void>) => {
    running.add(run)
    void run.finally(() => running.delete(run))
  }
  const tick = () =>
    track(
      runMaintenance(kernel, services).then(
        (r) => kernel.log.debug(r, 'maintenance done'),
        (err) => kernel.log.warn({ err }, 'maintenance failed'),
      ),
    )
  const timer = setInterval(tick, everyMs)
  timer.unref()
  tick()
  // A backlog (after downtime, a burst) can take longer than the interval now that sealing pauses between
  // batches: a tick that finds the last one still sealing skips, rather than race it for the same entries.
  let sealing = false
  const seal = setInterval(() => {
    if (sealing) return
    sealing = true
    track(
      sealAuditChains(kernel)
        .then(
          () => undefined,
          (err) => kernel.log.warn({ err }, 'audit sealing failed'),
        )
        .finally(() => (sealing = false)),
    )
  }, sealEveryMs)
  seal.unref()
  return async () => {
    clearInterval(timer)
    clearInterval(seal)
    await Promise.all([...running])
  }
}
