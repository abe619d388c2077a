import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { Db } from '../db/database.js'
import { touchApiKeys } from '../auth/api-keys.js'
import type { Principal, Tenant } from '../tenant.js'
import '../db/kernel.tables.js'

/**
 * The request log behind usage reports: counts per workspace, mode, UTC day, module and operation.
 * Buffered in memory and flushed once a second, so the hot path does no extra write; a crash loses at
 * most the last second of counts (usage, not billing).
 */
export class RequestCounter {
  private buffer = new Map<string, { tenant: Tenant; day: string; module: string; op: string; count: number; errors: number }>()
  /** API key id → when it was last used (the key list's `last_used_at`). */
  private lastUsed = new Map<string, number>()
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    private readonly flushMs = 1000,
  ) {}

  private dayStart = 0
  private dayName = ''

  record(principal: Principal, module: string, operationId: string, status: number, at: Date): void {
    // The UTC day's name is formatted once per day, not per request.
    const ms = at.getTime()
    // Only API keys have a last-used time (other bearer credentials carry an actor); formatted at the flush.
    if (!principal.actor) this.lastUsed.set(principal.keyId, ms)
    if (ms < this.dayStart || ms >= this.dayStart + 86_400_000) {
      this.dayStart = ms - (ms % 86_400_000)
      this.dayName = new Date(this.dayStart).toISOString().slice(0, 10)
    }
    const day = this.dayName
    const k = `${principal.workspaceId}|${principal.mode}|${day}|${module}|${operationId}`
    let e = this.buffer.get(k)
    if (!e) {
      e = { tenant: principal, day, module, op: operationId, count: 0, errors: 0 }
      this.buffer.set(k, e)
    }
    e.count++
    if (status >= 400) e.errors++
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs)
      this.timer.unref()
    }
  }

  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.buffer.size === 0 && this.lastUsed.size === 0) return
    const entries = [...this.buffer.values()]
    this.buffer = new Map()
    const used = this.lastUsed
    this.lastUsed = new Map()
    try {
      await touchApiKeys(this.db, used)
    } catch (err) {
      this.log.error({ err }, 'could not record when keys were last used')
    }
    if (entries.length === 0) return
    try {
      await this.db
        .insertInto('request_counts')
        .values(
          entries.map((e) => ({
            workspace_id: e.tenant.workspaceId,
            mode: e.tenant.mode,
            day: e.day,
            module: e.module,
            operation_id: e.op,
            count: e.count,
            errors: e.errors,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'mode', 'day', 'module', 'operation_id']).doUpdateSet({
            count: sql`request_counts.count + excluded.count`,
            errors: sql`request_counts.errors + excluded.errors`,
          }),
        )
        .execute()
    } catch (err) {
      this.log.error({ err }, 'could not flush request counts')
    }
  }
}
