import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import { keyOf, TransactionMemo } from '../../kernel/transaction-memo.js'
import './webhooks.tables.js'
import type { WebhookEndpointsTable } from './webhooks.tables.js'

// Endpoints: tenant functions take the tenant first; another workspace's endpoint is not found.

// The fan-out's input, read once per transaction however many events it emits (createConversation with a
// first message emits two); every write of `webhook_endpoints` below forgets the memo.
type Subscribed = Pick<WebhookEndpointsTable, 'id' | 'event_types'>
const subscribed = new TransactionMemo<Subscribed[]>()
const enabledQ = prepared((db, a: Tenant) => scoped(db, a).selectFrom('webhook_endpoints').select(['id', 'event_types']).where('enabled', '=', 1))

export async function insertEndpoint(db: Executor, row: WebhookEndpointsTable): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute()
  subscribed.forget(db)
}

export function findEndpoint(db: Executor, tenant: Tenant, id: string): Promise<WebhookEndpointsTable | undefined> {
  return scoped(db, tenant).selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst()
}

export function listEndpoints(db: Executor, tenant: Tenant, opts: { after: string | null; limit: number }): Promise<WebhookEndpointsTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
  if (opts.after) q = q.where('id', '<', opts.after)
  return q.execute()
}

export async function updateEndpoint(db: Executor, tenant: Tenant, id: string, patch: Partial<WebhookEndpointsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('webhook_endpoints').set(patch).where('id', '=', id).execute()
  subscribed.forget(db)
}

export async function deleteEndpoint(db: Executor, tenant: Tenant, id: string): Promise<boolean> {
  const r = await scoped(db, tenant).deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst()
  subscribed.forget(db)
  return Number(r.numDeletedRows) > 0
}

/** Fan-out input: the enabled endpoints of a workspace and mode. Shared within a transaction: read only. */
export function enabledEndpoints(db: Executor, tenant: Tenant): Promise<Subscribed[]> {
  return subscribed.read(db, keyOf(tenant, 'enabled'), () => enabledQ.all(db, { workspaceId: tenant.workspaceId, mode: tenant.mode }))
}

/**
 * Endpoint health after a batch of attempts, one guarded statement per kind: `mark` starts a failing run
 * (no-op while already failing), `clear` ends one, `restart` starts a new run now (a success, then a
 * failure, in the same batch).
 */
export async function setFailing(db: Executor, tenant: Tenant, ids: string[], how: 'mark' | 'clear' | 'restart', at: string): Promise<void> {
  if (ids.length === 0) return
  let q = scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ failing_since: how === 'clear' ? null : at })
    .where('id', 'in', ids)
  if (how === 'mark') q = q.where('failing_since', 'is', null)
  if (how === 'clear') q = q.where('failing_since', 'is not', null)
  await q.execute()
  subscribed.forget(db)
}

/** Guarded: true only for the call that actually disabled it (so the event is emitted once). */
export async function disableEndpoint(db: Executor, tenant: Tenant, id: string, reason: string, at: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('id', '=', id)
    .where('enabled', '=', 1)
    .executeTakeFirst()
  subscribed.forget(db)
  return Number(r.numUpdatedRows) === 1
}

/** Maintenance across every tenant (`svc secrets reseal`): endpoint ids with their sealed secrets. */
export function allEndpointSecrets(db: Executor, after: string | null, limit: number): Promise<{ id: string; secrets: string }[]> {
  let q = db.selectFrom('webhook_endpoints').select(['id', 'secrets']).orderBy('id').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Rewrites one endpoint's secrets if they are still what was read (a concurrent rotation wins). */
export async function resealEndpointSecrets(db: Executor, id: string, from: string, to: string): Promise<boolean> {
  const r = await db.updateTable('webhook_endpoints').set({ secrets: to }).where('id', '=', id).where('secrets', '=', from).executeTakeFirst()
  subscribed.forget(db)
  return Number(r.numUpdatedRows) === 1
}

/** Every endpoint URL of the tenant, enabled or not: the Playground inboxes it delivers to (webhooks.privacy.ts). */
export async function endpointUrls(db: Executor, tenant: Tenant): Promise<string[]> {
  return (await scoped(db, tenant).selectFrom('webhook_endpoints').select('url').execute()).map((r) => r.url)
}
