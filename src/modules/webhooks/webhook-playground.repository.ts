import type { Executor } from '../../kernel/db/database.js'
import type { Mode } from '../../kernel/tenant.js'
import './webhooks.tables.js'
import type { WebhookPlaygroundCapturesTable } from './webhooks.tables.js'

// Playground captures: keyed by token and mode, not by workspace.

export async function insertCapture(db: Executor, row: WebhookPlaygroundCapturesTable): Promise<void> {
  await db.insertInto('webhook_playground_captures').values(row).execute()
}

export function listCaptures(db: Executor, token: string, mode: Mode, opts: { after: string | null; limit: number }): Promise<WebhookPlaygroundCapturesTable[]> {
  let q = db
    .selectFrom('webhook_playground_captures')
    .selectAll()
    .where('token', '=', token)
    .where('mode', '=', mode)
    .orderBy('id', 'desc')
    .limit(opts.limit + 1)
  if (opts.after) q = q.where('id', '<', opts.after)
  return q.execute()
}

/** The captures of an inbox after `after` (an id), oldest first: what the Playground stream polls for. */
export function capturesAfter(db: Executor, token: string, mode: Mode, after: string | null, limit: number): Promise<WebhookPlaygroundCapturesTable[]> {
  let q = db.selectFrom('webhook_playground_captures').selectAll().where('token', '=', token).where('mode', '=', mode).orderBy('id', 'asc').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Keep only the newest `keep` captures of an inbox. */
export async function pruneInbox(db: Executor, token: string, mode: Mode, keep: number): Promise<void> {
  const boundary = await db.selectFrom('webhook_playground_captures').select('id').where('token', '=', token).where('mode', '=', mode).orderBy('id', 'desc').offset(keep).limit(1).executeTakeFirst()
  if (!boundary) return
  await db.deleteFrom('webhook_playground_captures').where('token', '=', token).where('mode', '=', mode).where('id', '<=', boundary.id).execute()
}

export async function purgeCaptures(db: Executor, before: string): Promise<number> {
  const r = await db.deleteFrom('webhook_playground_captures').where('received_at', '<', before).executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Playground captures in `mode` of one of `tokens`, or recording one of `deliveryIds` (any token). */
export function capturesOf(db: Executor, mode: Mode, tokens: string[], deliveryIds: string[]): Promise<WebhookPlaygroundCapturesTable[]> {
  if (tokens.length + deliveryIds.length === 0) return Promise.resolve([])
  return db
    .selectFrom('webhook_playground_captures')
    .selectAll()
    .where('mode', '=', mode)
    .where((eb) => eb.or([...(tokens.length ? [eb('token', 'in', tokens)] : []), ...(deliveryIds.length ? [eb('delivery_id', 'in', deliveryIds)] : [])]))
    .orderBy('id')
    .execute()
}

export async function deleteCaptures(db: Executor, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0
  const r = await db.deleteFrom('webhook_playground_captures').where('id', 'in', ids).executeTakeFirst()
  return Number(r.numDeletedRows)
}
