import { iso } from '../../../kernel/clock.js'
import { isUniqueViolation } from '../../../kernel/db/database.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { ChannelMediaPendingTable } from '../channels.tables.js'
import { deletePendingMedia, stalePendingMedia, takePendingMedia } from './messaging.repository.js'
import { deleteMediaFolder } from './twilio-media.js'

/**
 * A pending folder this old has no message coming: the fetch has a 10 s budget and the message's
 * transaction follows it at once. Twilio does not retry a webhook whose answer failed, so the folder's
 * blobs would otherwise stay for good.
 */
export const MEDIA_SWEEP_AGE_MS = 3600_000
/** The sweep runs in these slots while stale folders exist (every worker's maintenance tick asks for one). */
const SLOT_MS = 15 * 60_000
const BATCH = 100

/**
 * Deletes a pending folder's blobs, then its row. The row is taken first (`swept_at`): from then on the
 * message's transaction cannot claim it (it links Twilio's URLs instead), so no committed message ever
 * links a deleted blob; a sweep that dies half-way leaves the row taken, and the next one finishes it.
 * `before`: only a row written before then (null: any, for an erasure).
 */
export async function dropPendingMedia(k: Kernel, row: ChannelMediaPendingTable, before: string | null): Promise<boolean> {
  if (!(await takePendingMedia(k.db, row, iso(k.clock.now()), before))) return false
  await deleteMediaFolder(k, row.channel_id, row.folder)
  await deletePendingMedia(k.db, row)
  return true
}

/**
 * `channels.twilio_media_sweep`: the blobs of inbound media whose message never committed (its transaction
 * failed, its process died), older than MEDIA_SWEEP_AGE_MS, every tenant's. A fixed id per slot keeps one
 * job queued however many workers ask; a failed run is retried.
 */
export class TwilioMediaSweep {
  readonly job: JobDefinition<Record<string, never>>

  constructor(private readonly k: Kernel) {
    this.job = defineJob<Record<string, never>>({
      name: 'channels.twilio_media_sweep',
      retrySchedule: [60, 300, 1800],
      run: async () => {
        const n = await this.sweep()
        if (n > 0) k.log.info({ folders: n }, 'unclaimed inbound media deleted')
        await this.schedule()
      },
    })
  }

  /** Folders pending since before this are stale. */
  private cutoff(): string {
    return iso(new Date(this.k.clock.now().getTime() - MEDIA_SWEEP_AGE_MS))
  }

  /** The folders deleted. */
  async sweep(): Promise<number> {
    const before = this.cutoff()
    let swept = 0
    for (;;) {
      const rows = await stalePendingMedia(this.k.db, before, BATCH)
      for (const row of rows) if (await dropPendingMedia(this.k, row, before)) swept++
      if (rows.length < BATCH) return swept
    }
  }

  /** Queues the next slot's sweep when a stale folder waits (the maintenance tick, and each run). */
  async schedule(): Promise<void> {
    if ((await stalePendingMedia(this.k.db, this.cutoff(), 1)).length === 0) return
    const slot = Math.floor(this.k.clock.now().getTime() / SLOT_MS) + 1
    try {
      await this.k.transaction(null, (tx) => enqueue(tx, this.k.clock, this.job, {}, { id: `job_channels_media_sweep_${slot}`, runAt: new Date(slot * SLOT_MS) }))
    } catch (err) {
      if (!isUniqueViolation(err)) throw err
    }
  }
}
