import { createHash } from 'node:crypto'
import { iso, type Clock } from '../clock.js'
import { toJson, type Executor } from '../db/database.js'
import '../db/kernel.tables.js'
import type { AuditLogTable } from '../db/kernel.tables.js'
import { newId } from '../ids.js'
import type { Mode, Tenant } from '../tenant.js'

/**
 * The audit log: every change — an API write, a worker's job, a CLI command — leaves one entry, written in
 * the transaction of the change (kernel.transaction). Who did it comes from the transaction's owner, the
 * object the change is made for, bound to its scope (`bindAudit`: by the HTTP layer to a request's principal,
 * by the job runner to a job's context, by the CLI to its tenant); what changed from the transaction's result
 * and the events it emitted. Entries hold names, never values
 * of personal data: field names of the request body, the target's type and id.
 *
 * Entries are append-only and chained per workspace under a key of the server secret (audit-chain.ts):
 * writing an entry does not touch the chain (no per-workspace lock on every write), but it carries a MAC
 * of what the service wrote (`entry_mac`), so the sealer links only rows the service wrote.
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

/**
 * Scopes by owner, the object a change's code hands to kernel.transaction (a request's principal, a job's
 * context or tenant). An explicit owner rather than AsyncLocalStorage, as for the idempotency claim
 * (kernel/http/idempotency.ts): on Node 20 one AsyncLocalStorage turns on promise hooks for every promise the
 * process makes, a quarter of a read's throughput (docs/performance.md, finding 26).
 */
const scopes = new WeakMap<object, AuditScope>()
/** Changes made for `owner` are `scope`'s. Returns the owner. */
export function bindAudit<T extends object>(owner: T, scope: AuditScope): T {
  scopes.set(owner, scope)
  return owner
}
const auditScopeOf = (owner: object | null | undefined): AuditScope | undefined => (owner ? scopes.get(owner) : undefined)
/** `to`, made for whoever `from` is made for (a job's tenant for the job's context). Returns `to`. */
export function inheritAudit<T extends object>(from: object | null | undefined, to: T): T {
  const scope = auditScopeOf(from)
  if (scope) scopes.set(to, scope)
  return to
}
/**
 * The owner of a transaction beside the main one of a request or job (a knowledge gap noted during a search, a
 * delivery's status): audited as `from`'s, but never carrying a request's Idempotency-Key claim, which only
 * the transaction of the effect may commit. Not a tenant either: the entry's tenant comes from the events.
 */
export const sideOwner = (from: object | null | undefined): object | null => {
  const scope = auditScopeOf(from)
  return scope ? bindAudit({}, scope) : null
}

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
 * the first event. Nothing is written for a transaction whose owner has no scope, or one that names no tenant.
 */
export async function recordAudit(tx: Executor, clock: Clock, owner: object | null, result: unknown, entryMac: (row: AuditLogTable) => string): Promise<void> {
  const scope = auditScopeOf(owner)
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
  row.entry_mac = entryMac(row)
  await tx.insertInto('audit_log').values(row).execute()
}

/** The content an entry's chain link covers (everything but the link itself), in a fixed order. */
export function contentOf(r: AuditLogTable): string {
  return JSON.stringify([
    r.id,
    r.workspace_id,
    r.mode,
    r.actor_type,
    r.actor_id,
    r.action,
    r.target_type,
    r.target_id,
    r.fields,
    r.events,
    r.ip,
    r.user_agent,
    r.request_id,
    r.occurred_at,
    Number(r.seq),
    r.prev_hash,
  ])
}
/** What the service wrote (before sealing): its entry MAC covers this, so an inserted row is told apart. */
export function writtenContentOf(r: AuditLogTable): string {
  return JSON.stringify([r.id, r.workspace_id, r.mode, r.actor_type, r.actor_id, r.action, r.target_type, r.target_id, r.fields, r.events, r.ip, r.user_agent, r.request_id, r.occurred_at])
}
/** The unkeyed link of chains sealed before the keyed scheme (kernel/audit/audit-upgrade.ts re-seals them). */
export const legacyEntryHash = (r: AuditLogTable): string => createHash('sha256').update(contentOf(r)).digest('hex')
/** The chain of a workspace starts from this (no previous entry). */
export const GENESIS = '0'.repeat(64)

export type { Mode }
