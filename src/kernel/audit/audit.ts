import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'
import { iso, type Clock } from '../clock.js'
import { isUniqueViolation, toJson, type Executor } from '../db/database.js'
import '../db/kernel.tables.js'
import { workspaceScoped } from '../db/scoped.js'
import type { AuditLogTable } from '../db/kernel.tables.js'
import { newId } from '../ids.js'
import type { Mode, Tenant } from '../tenant.js'

/**
 * The audit log: every change — an API write, a worker's job, a CLI command — leaves one entry, written in
 * the transaction of the change (kernel.transaction). Who did it comes from the scope the change runs in
 * (`auditScope`: set by the HTTP layer per request, by the job runner per job, by the CLI per command);
 * what changed from the transaction's result and the events it emitted. Entries hold names, never values
 * of personal data: field names of the request body, the target's type and id.
 *
 * Entries are append-only and hash-chained per workspace. Writing an entry does not touch the chain (no
 * per-workspace lock on every write); `sealAuditChain` links unsealed entries in order afterwards: each
 * gets the next `seq`, the previous entry's hash and its own hash over its content. Two sealers cannot
 * both take a seq (a unique index): the loser stops. `verifyAuditChain` recomputes the chain, so an entry
 * modified or deleted after sealing is detected (the window before sealing is a few seconds).
 */

export type ActorType = 'api_key' | 'member' | 'oauth_app' | 'system' | 'cli' | 'anonymous'

export interface AuditScope {
  actor: { type: ActorType; id: string | null }
  /** The operationId, the job name, or the CLI command. */
  action: string
  ip?: string | null
  userAgent?: string | null
  requestId?: string | null
  /** Names of the fields the request set (its body's top-level keys). */
  fields?: string[]
  /** The target when the request names it (path id), used when the result does not. */
  targetId?: string | null
}

export const auditScope = new AsyncLocalStorage<AuditScope>()

/** What a transaction emitted (events.ts records it): the fallback target and the system's "fields". */
const emitted = new WeakMap<object, { tenant: Tenant; type: string; objectType: string | null; id: string | null }[]>()
export function noteEmitted(tx: object, tenant: Tenant, type: string, object: unknown): void {
  const o = object as { id?: unknown; object?: unknown; call_id?: unknown } | null
  const list = emitted.get(tx) ?? []
  list.push({ tenant, type, objectType: typeof o?.object === 'string' ? o.object : type.split('.')[0], id: typeof o?.id === 'string' ? o.id : typeof o?.call_id === 'string' ? o.call_id : null })
  emitted.set(tx, list)
}

/** Kept out of an entry's fields: the names of secrets are fine to show, but not needed either. */
const isTenant = (v: unknown): v is Tenant => typeof (v as Tenant | null)?.workspaceId === 'string' && ((v as Tenant).mode === 'live' || (v as Tenant).mode === 'test')

/**
 * The entry for this transaction, if it changed something in a scope: the tenant from the owner (a
 * request's principal) or the first event; the target from the result (`object`, `id`), the path id, or
 * the first event. Nothing is written for a transaction outside any scope, or one that names no tenant.
 */
export async function recordAudit(tx: Executor, clock: Clock, owner: object | null, result: unknown): Promise<void> {
  const scope = auditScope.getStore()
  if (!scope) return
  const events = emitted.get(tx) ?? []
  const tenant = isTenant(owner) ? owner : (events[0]?.tenant ?? null)
  if (!tenant) return
  const r = result as { object?: unknown; id?: unknown } | null
  // A change emits an event or makes a resource; a transaction that did neither (a preview, a job's
  // bookkeeping) is not one.
  if (events.length === 0 && !(r && typeof r === 'object' && typeof r.id === 'string')) return
  const fromResult = r && typeof r === 'object' && typeof r.id === 'string' ? { type: typeof r.object === 'string' ? r.object : null, id: r.id } : null
  const target = fromResult ?? (scope.targetId ? { type: null, id: scope.targetId } : events[0] ? { type: events[0].objectType, id: events[0].id } : { type: null, id: null })
  const row: AuditLogTable = {
    id: newId('aud'),
    workspace_id: tenant.workspaceId,
    mode: tenant.mode,
    actor_type: scope.actor.type,
    actor_id: scope.actor.id,
    action: scope.action,
    target_type: target.type,
    target_id: target.id,
    fields: toJson(scope.fields ?? []),
    events: toJson([...new Set(events.map((e) => e.type))]),
    ip: scope.ip ?? null,
    user_agent: scope.userAgent ? scope.userAgent.slice(0, 300) : null,
    request_id: scope.requestId ?? null,
    occurred_at: iso(clock.now()),
    seq: null,
    prev_hash: null,
    hash: null,
  }
  await tx.insertInto('audit_log').values(row).execute()
}

/** The content an entry's hash covers (everything but the hash itself), in a fixed order. */
function contentOf(r: AuditLogTable): string {
  return JSON.stringify([r.id, r.workspace_id, r.mode, r.actor_type, r.actor_id, r.action, r.target_type, r.target_id, r.fields, r.events, r.ip, r.user_agent, r.request_id, r.occurred_at, Number(r.seq), r.prev_hash])
}
export const entryHash = (r: AuditLogTable): string => createHash('sha256').update(contentOf(r)).digest('hex')
/** The chain of a workspace starts from this (no previous entry). */
export const GENESIS = '0'.repeat(64)

/** Links the workspace's unsealed entries onto its chain, oldest first; returns how many were sealed. */
export async function sealAuditChain(db: Executor, workspaceId: string, batch = 500): Promise<number> {
  let sealed = 0
  for (;;) {
    const head = await workspaceScoped(db, workspaceId).selectFrom('audit_log').select(['seq', 'hash']).where('seq', 'is not', null).orderBy('seq', 'desc').limit(1).executeTakeFirst()
    const open = await workspaceScoped(db, workspaceId).selectFrom('audit_log').selectAll().where('seq', 'is', null).orderBy('occurred_at').orderBy('id').limit(batch).execute()
    if (open.length === 0) return sealed
    let seq = head ? Number(head.seq) : 0
    let prev = head?.hash ?? GENESIS
    for (const row of open) {
      const next: AuditLogTable = { ...row, seq: seq + 1, prev_hash: prev }
      next.hash = entryHash(next)
      try {
        const r = await db.updateTable('audit_log').set({ seq: next.seq, prev_hash: next.prev_hash, hash: next.hash }).where('id', '=', row.id).where('seq', 'is', null).executeTakeFirst()
        if (Number(r.numUpdatedRows) !== 1) return sealed
      } catch (err) {
        // Another sealer took this seq first: it carries on from here.
        if (isUniqueViolation(err)) return sealed
        throw err
      }
      seq = next.seq!
      prev = next.hash
      sealed++
    }
  }
}

/** Workspaces with unsealed entries (the maintenance loop seals them). */
export async function workspacesToSeal(db: Executor, limit = 100): Promise<string[]> {
  const rows = await db.selectFrom('audit_log').select('workspace_id').where('seq', 'is', null).groupBy('workspace_id').limit(limit).execute()
  return rows.map((r) => r.workspace_id)
}

export interface ChainVerification {
  intact: boolean
  entries: number
  head: { seq: number; hash: string } | null
  /** The first entry that does not verify, and why. */
  broken: { seq: number; id: string | null; reason: string } | null
}

/** Recomputes the workspace's chain from the start (both modes: one chain per workspace). */
export async function verifyAuditChain(db: Executor, workspaceId: string, page = 1000): Promise<ChainVerification> {
  let prev = GENESIS
  let expected = 1
  let after = 0
  for (;;) {
    const rows = await workspaceScoped(db, workspaceId).selectFrom('audit_log').selectAll().where('seq', '>', after).orderBy('seq').limit(page).execute()
    for (const r of rows) {
      const seq = Number(r.seq)
      const fail = (reason: string): ChainVerification => ({ intact: false, entries: expected - 1, head: null, broken: { seq, id: r.id, reason } })
      if (seq !== expected) return { intact: false, entries: expected - 1, head: null, broken: { seq: expected, id: null, reason: `entry ${expected} is missing (the next is ${seq})` } }
      if (r.prev_hash !== prev) return fail('its previous-hash does not match the entry before it')
      if (entryHash(r) !== r.hash) return fail('its content does not match its hash (modified)')
      prev = r.hash!
      expected++
    }
    if (rows.length < page) break
    after = Number(rows[rows.length - 1].seq)
  }
  return { intact: true, entries: expected - 1, head: expected > 1 ? { seq: expected - 1, hash: prev } : null, broken: null }
}

export type { Mode }
