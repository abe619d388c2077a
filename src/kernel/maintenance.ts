import { iso } from './clock.js'
import { purgeFinishedJobs } from './jobs/jobs.js'
import type { Kernel } from './kernel.js'

const FINISHED_JOB_RETENTION_DAYS = 7

/**
 * Housekeeping every worker runs periodically: expired Idempotency-Keys (after
 * IDEMPOTENCY_RETENTION_HOURS) and succeeded jobs older than a week. Deleting the same rows from two
 * workers is harmless, so no coordination is needed.
 */
export async function runMaintenance(kernel: Kernel): Promise<{ idempotencyKeys: number; jobs: number }> {
  const now = kernel.clock.now().getTime()
  const cutoff = iso(new Date(now - kernel.config.idempotencyRetentionHours * 3600_000))
  const idem = await kernel.db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst()
  const jobs = await purgeFinishedJobs(kernel.db, new Date(now - FINISHED_JOB_RETENTION_DAYS * 86400_000))
  return { idempotencyKeys: Number(idem.numDeletedRows), jobs }
}

export function scheduleMaintenance(kernel: Kernel, everyMs = 5 * 60_000): () => void {
  const tick = () =>
    runMaintenance(kernel).then(
      (r) => kernel.log.debug(r, 'maintenance done'),
      (err) => kernel.log.warn({ err }, 'maintenance failed'),
    )
  const timer = setInterval(tick, everyMs)
  timer.unref()
  void tick()
  return () => clearInterval(timer)
}
