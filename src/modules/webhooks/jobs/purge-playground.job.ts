import { iso, type Clock } from '../../../kernel/clock.js'
import { isUniqueViolation, type Executor } from '../../../kernel/db/database.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import * as repo from '../webhooks.repository.js'

/** Captures are kept at most this long. */
export const PLAYGROUND_RETENTION_MS = 24 * 3600_000
const HOUR = 3600_000

export const purgePlaygroundJob: (db: Executor, clock: Clock) => JobDefinition<{ before?: string }> = (db, clock) =>
  defineJob({
    name: 'webhooks.purge_playground',
    retrySchedule: [60, 300, 1800],
    run: async () => {
      await repo.purgeCaptures(db, iso(new Date(clock.now().getTime() - PLAYGROUND_RETENTION_MS)))
    },
  })

/**
 * Make sure a purge runs once a capture received at `receivedAt` has expired: one job per hour slot,
 * its id derived from the slot so every process and every capture of that hour share it.
 */
export class PurgeScheduler {
  private lastSlot = 0
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
    private readonly job: JobDefinition,
  ) {}

  async ensureFor(receivedAt: Date): Promise<void> {
    const slot = Math.ceil((receivedAt.getTime() + PLAYGROUND_RETENTION_MS) / HOUR) * HOUR + 60_000
    if (slot === this.lastSlot) return
    try {
      await enqueue(this.db, this.clock, this.job, {}, { runAt: new Date(slot), id: `job_webhooks_purge_${new Date(slot).toISOString().slice(0, 13)}` })
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
    }
    this.lastSlot = slot
  }
}
