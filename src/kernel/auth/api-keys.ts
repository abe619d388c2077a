import { createHash } from 'node:crypto'
import { iso, type Clock } from '../clock.js'
import type { Db, Executor } from '../db/database.js'
import { prepared } from '../db/prepared.js'
import { newId, randomToken } from '../ids.js'
import type { Mode, Principal, Tenant } from '../tenant.js'
import { scoped } from '../db/scoped.js'
import '../db/kernel.tables.js'

export const KEY_PREFIX: Record<Mode, string> = { live: 'svc_live_', test: 'svc_test_' }
const KEY_SHAPE = /^svc_(live|test)_[A-Za-z0-9_-]{20,128}$/

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex')

export function keyMode(key: string): Mode | null {
  const m = KEY_SHAPE.exec(key)
  return m ? (m[1] as Mode) : null
}

export interface ApiKeyView {
  id: string
  workspace_id: string
  mode: Mode
  name: string | null
  prefix: string
  scopes: string[]
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
}

function view(row: {
  id: string
  workspace_id: string
  mode: Mode
  name: string | null
  prefix: string
  scopes: string
  created_at: string
  revoked_at: string | null
  last_used_at?: string | null
}): ApiKeyView {
  return { ...row, last_used_at: row.last_used_at ?? null, scopes: row.scopes.split(' ').filter(Boolean) }
}

/** Keys are stored as SHA-256 hashes: a 256-bit random key needs no slow KDF, and lookup stays O(1). */
export async function createApiKey(db: Executor, clock: Clock, input: { workspaceId: string; mode: Mode; scopes: string[]; name?: string | null }): Promise<ApiKeyView & { key: string }> {
  const key = KEY_PREFIX[input.mode] + randomToken(32)
  const row = {
    id: newId('key'),
    workspace_id: input.workspaceId,
    mode: input.mode,
    name: input.name ?? null,
    prefix: key.slice(0, 13),
    key_hash: hashKey(key),
    scopes: input.scopes.join(' '),
    created_at: iso(clock.now()),
    revoked_at: null,
    last_used_at: null,
  }
  await db.insertInto('api_keys').values(row).execute()
  return { ...view(row), key }
}

/** Every key of every workspace: the operator's `svc keys list` (CLI), which answers to no tenant. */
export async function listApiKeys(db: Db): Promise<ApiKeyView[]> {
  const rows = await db.selectFrom('api_keys').select(['id', 'workspace_id', 'mode', 'name', 'prefix', 'scopes', 'created_at', 'revoked_at', 'last_used_at']).orderBy('id').execute()
  return rows.map(view)
}

/** A tenant's keys, revoked ones included (the access review), oldest first: filtered in SQL, not after loading all. */
export async function listTenantApiKeys(db: Db, tenant: Tenant): Promise<ApiKeyView[]> {
  const rows = await scoped(db, tenant).selectFrom('api_keys').select(['id', 'workspace_id', 'mode', 'name', 'prefix', 'scopes', 'created_at', 'revoked_at', 'last_used_at']).orderBy('id').execute()
  return rows.map(view)
}

export async function revokeApiKey(db: Executor, clock: Clock, id: string): Promise<boolean> {
  const res = await db
    .updateTable('api_keys')
    .set({ revoked_at: iso(clock.now()) })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  principalCache.clear()
  return Number(res.numUpdatedRows) > 0
}

/**
 * Principals are cached for one second: under load that turns one query per request into one per key
 * per second. Revocation therefore takes effect within a second on every node (at once in the process
 * that revoked). The cache is keyed by the presented key itself, so a known key costs no hashing; the
 * keys live only in this process's memory, as they do in its request buffers, and never at rest.
 */
const PRINCIPAL_TTL_MS = 1000
/** Unknown or revoked keys are remembered this long: a flood of invented keys costs one query per key, not per request. */
const UNKNOWN_TTL_MS = 5000
const CACHE_MAX = 10_000
const principalCache = new Map<string, { principal: Principal; until: number }>()
// A separate map, so a flood of random keys can never evict the real ones.
const unknownCache = new Map<string, number>()

export async function findPrincipal(db: Db, key: string): Promise<Principal | null> {
  const now = Date.now()
  const hit = principalCache.get(key)
  if (hit && hit.until > now) return hit.principal
  const unknownUntil = unknownCache.get(key)
  if (unknownUntil !== undefined && unknownUntil > now) return null
  const principal = await loadPrincipal(db, hashKey(key))
  if (principal) {
    if (principalCache.size >= CACHE_MAX) principalCache.clear()
    principalCache.set(key, { principal, until: now + PRINCIPAL_TTL_MS })
  } else {
    if (unknownCache.size >= CACHE_MAX) unknownCache.clear()
    unknownCache.set(key, now + UNKNOWN_TTL_MS)
  }
  return principal
}

async function loadPrincipal(db: Db, hash: string): Promise<Principal | null> {
  const row = await principalQ.first(db, { hash })
  if (!row || row.revoked_at) return null
  return { keyId: row.id, workspaceId: row.workspace_id, mode: row.mode, scopes: row.scopes.split(' ').filter(Boolean) }
}

const principalQ = prepared((db, a: { hash: string }) => db.selectFrom('api_keys').select(['id', 'workspace_id', 'mode', 'scopes', 'revoked_at']).where('key_hash', '=', a.hash))

/** Records when keys were last used (the request counter's flush: one statement per key per second at most). */
export async function touchApiKeys(db: Executor, lastUsed: Map<string, number>): Promise<void> {
  for (const [id, ms] of lastUsed)
    await db
      .updateTable('api_keys')
      .set({ last_used_at: new Date(ms).toISOString() })
      .where('id', '=', id)
      .execute()
}

/** After a revocation made outside revokeApiKey: this process stops accepting the key at once. */
export function clearPrincipalCache(): void {
  principalCache.clear()
}
