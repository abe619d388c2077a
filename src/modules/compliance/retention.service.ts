import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import { fromJson, toJson, type Executor } from '../../kernel/db/database.js'
import { nextTurn } from '../../kernel/db/turns.js'
import { AppError } from '../../kernel/errors.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { RetentionClass } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Principal, Tenant } from '../../kernel/tenant.js'
import * as repo from './compliance.repository.js'
import type { RetentionPoliciesT, UpdateRetentionBodyT } from './compliance.schemas.js'
import type { RetentionRunsTable } from './compliance.tables.js'

/**
 * Rows deleted per statement: short transactions, no long locks, and a turn of the event loop between two
 * (on SQLite 500 conversations with what goes with them held the event loop ~130 ms, a whole purge seconds).
 */
export const PURGE_BATCH = 100
/** The audit log is evidence: kept at least a year. */
export const AUDIT_MINIMUM_DAYS = 365
/** The Playground keeps captures 24 h whatever a policy says (webhooks module). */
const FIXED = { playground: { description: 'Webhook Playground captures: always 24 hours.', days: 1 } }

type Policies = Record<string, number | 'keep'>

/**
 * Retention per class of data: every module's classes (messages, call recordings, transcripts, webhook
 * deliveries…) and the compliance module's own (audit log, DSAR exports). A policy is days or `keep`
 * (the default); a PATCH below a class's minimum is 422. Enforcement deletes in batches; what a dry run
 * counts with a cutoff is exactly what enforcement with that cutoff deletes (the same conditions).
 */
export class RetentionService {
  constructor(
    private readonly k: Kernel,
    private readonly own: RetentionClass[],
    /** The webhooks module's outbox: the events that copy a class's content go with it. */
    private readonly outbox: () => Pick<Services['webhooks']['outbox'], 'count' | 'purge'> | undefined,
  ) {}

  /** What enforcing a class with this cutoff deletes: its records and the outbox events copying them. */
  private async count(c: RetentionClass, tenant: Tenant, before: string): Promise<number> {
    const copies = c.events?.length && this.outbox() ? await this.outbox()!.count(tenant, c.events, before) : 0
    return (await c.count(this.k, tenant, before)) + copies
  }

  classes(): RetentionClass[] {
    return [...this.k.modules.flatMap((m) => m.retention ?? []), ...this.own]
  }

  /** `db`: a transaction reading it (SQLite has one connection, held by the transaction). */
  async get(tenant: Tenant, dryRun: Record<string, number> | null = null, policies?: Policies, db: Executor = this.k.db): Promise<RetentionPoliciesT> {
    const row = await repo.findPolicies(db, tenant)
    const stored = policies ?? fromJson<Policies>(row?.policies ?? null, {})
    const run = await repo.lastRun(db, tenant)
    return {
      object: 'retention_policies',
      policies: { ...Object.fromEntries(this.classes().map((c) => [c.name, stored[c.name] ?? 'keep'])), playground: FIXED.playground.days },
      classes: [
        ...this.classes().map((c) => ({ name: c.name, description: c.description, minimum_days: c.minimumDays, fixed: false })),
        { name: 'playground', description: FIXED.playground.description, minimum_days: 1, fixed: true },
      ],
      dry_run: dryRun,
      last_run: run
        ? { finished_at: run.finished_at, deleted: Object.fromEntries(Object.entries(fromJson<Record<string, { deleted: number }>>(run.deleted, {})).map(([c, v]) => [c, v.deleted])) }
        : null,
      updated_at: row?.updated_at ?? null,
    }
  }

  async update(principal: Principal, body: UpdateRetentionBodyT): Promise<RetentionPoliciesT> {
    const classes = new Map(this.classes().map((c) => [c.name, c]))
    for (const [name, value] of Object.entries(body.policies)) {
      const pointer = `/body/policies/${name}`
      if (name in FIXED) throw new AppError('validation_failed', `${name} is fixed: ${FIXED.playground.description}`, { errors: [{ pointer, detail: 'not configurable' }] })
      const c = classes.get(name)
      if (!c) throw new AppError('validation_failed', `Unknown data class '${name}'; the classes are ${[...classes.keys()].join(', ')}.`, { errors: [{ pointer, detail: 'unknown class' }] })
      if (value !== 'keep' && value < c.minimumDays) {
        throw new AppError('validation_failed', `${name} must be kept at least ${c.minimumDays} days (or 'keep').`, { errors: [{ pointer, detail: `at least ${c.minimumDays}` }] })
      }
    }
    const current = fromJson<Policies>((await repo.findPolicies(this.k.db, principal))?.policies ?? null, {})
    const next = { ...current, ...body.policies }
    if (body.dry_run) {
      // Nothing saved: what enforcing these policies now would delete.
      const counts: Record<string, number> = {}
      for (const [name, c] of classes) {
        const days = next[name]
        counts[name] = days === undefined || days === 'keep' ? 0 : await this.count(c, principal, this.cutoff(days))
      }
      return this.get(principal, counts, next)
    }
    return this.k.transaction(principal, async (tx) => {
      await repo.savePolicies(tx, { workspace_id: principal.workspaceId, mode: principal.mode, policies: toJson(next), updated_at: iso(this.k.clock.now()) })
      return this.get(principal, null, next, tx)
    })
  }

  cutoff(days: number): string {
    return iso(new Date(this.k.clock.now().getTime() - days * 86400_000))
  }

  /** One enforcement run for a tenant: each class with a policy purged to its cutoff in batches; the run recorded with its event. */
  async enforce(tenant: Tenant): Promise<RetentionRunsTable | null> {
    const policies = fromJson<Policies>((await repo.findPolicies(this.k.db, tenant))?.policies ?? null, {})
    const started = iso(this.k.clock.now())
    const deleted: Record<string, { cutoff: string; deleted: number }> = {}
    for (const c of this.classes()) {
      const days = policies[c.name]
      if (days === undefined || days === 'keep') continue
      const cutoff = this.cutoff(days)
      let n = 0
      for (;;) {
        const removed = await c.purge(this.k, tenant, cutoff, PURGE_BATCH)
        n += removed
        if (removed < PURGE_BATCH) break
        await nextTurn()
      }
      const outbox = this.outbox()
      if (c.events?.length && outbox) {
        for (;;) {
          const removed = await outbox.purge(tenant, c.events, cutoff, PURGE_BATCH)
          n += removed
          if (removed < PURGE_BATCH) break
          await nextTurn()
        }
      }
      deleted[c.name] = { cutoff, deleted: n }
    }
    if (Object.keys(deleted).length === 0) return null
    const run: RetentionRunsTable = { id: newId('ret'), workspace_id: tenant.workspaceId, mode: tenant.mode, deleted: toJson(deleted), started_at: started, finished_at: iso(this.k.clock.now()) }
    await this.k.transaction(sideOwner(tenant), async (tx) => {
      await repo.insertRun(tx, run)
      await this.k.events.emit(tx, tenant, 'retention.enforced', {
        object: 'retention_run',
        id: run.id,
        finished_at: run.finished_at,
        deleted: Object.fromEntries(Object.entries(deleted).map(([c, v]) => [c, v.deleted])),
      })
    })
    return run
  }
}
