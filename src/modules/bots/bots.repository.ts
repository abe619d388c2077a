import { SqliteAdapter } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './bots.tables.js'
import type { BotRepliesTable, BotsTable, BotToolsTable, BotVersionsTable } from './bots.tables.js'

// The only SQL of the bots module. Every function takes the tenant first; another workspace's row is simply
// not found.

type Page = { after: string | null; limit: number }
const lockable = (db: Executor, forUpdate: boolean | undefined): boolean => !!forUpdate && !(db.getExecutor().adapter instanceof SqliteAdapter)

// ---- bots ----

export async function insertBot(db: Executor, row: BotsTable): Promise<void> {
  await db.insertInto('bots').values(row).execute()
}

/** `forUpdate` locks the row on PostgreSQL: publish, versions and tools serialise per bot. */
export function findBot(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<BotsTable | undefined> {
  const q = scoped(db, tenant).selectFrom('bots').selectAll().where('id', '=', id)
  return (lockable(db, opts.forUpdate) ? q.forUpdate() : q).executeTakeFirst()
}

export function listBots(db: Executor, tenant: Tenant, page: Page & { status?: 'draft' | 'published' | 'archived' }): Promise<BotsTable[]> {
  let q = scoped(db, tenant).selectFrom('bots').selectAll()
  if (page.status === 'archived') q = q.where('archived', '=', 1)
  else if (page.status === 'published') q = q.where('archived', '=', 0).where('published_version_id', 'is not', null)
  else if (page.status === 'draft') q = q.where('archived', '=', 0).where('published_version_id', 'is', null)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateBot(db: Executor, tenant: Tenant, id: string, patch: Partial<BotsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('bots').set(patch).where('id', '=', id).execute()
}

/** A bot and everything it owns; its replies' messages stay in the inbox, the reply records go. */
export async function deleteBot(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('bot_tools').where('bot_id', '=', id).execute()
  await scoped(db, tenant).deleteFrom('bot_versions').where('bot_id', '=', id).execute()
  await scoped(db, tenant).deleteFrom('bot_replies').where('bot_id', '=', id).execute()
  await scoped(db, tenant).deleteFrom('bots').where('id', '=', id).execute()
}

// ---- tools ----

export async function insertTool(db: Executor, row: BotToolsTable): Promise<void> {
  await db.insertInto('bot_tools').values(row).execute()
}

export async function insertTools(db: Executor, rows: BotToolsTable[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('bot_tools').values(rows).execute()
}

/** The draft's tools, in attachment order (a bot has at most MAX_TOOLS). */
export function toolsOf(db: Executor, tenant: Tenant, botId: string): Promise<BotToolsTable[]> {
  return scoped(db, tenant).selectFrom('bot_tools').selectAll().where('bot_id', '=', botId).orderBy('id').execute()
}

export function listTools(db: Executor, tenant: Tenant, botId: string, page: Page): Promise<BotToolsTable[]> {
  let q = scoped(db, tenant).selectFrom('bot_tools').selectAll().where('bot_id', '=', botId)
  if (page.after) q = q.where('id', '>', page.after)
  return q
    .orderBy('id')
    .limit(page.limit + 1)
    .execute()
}

// ---- versions ----

export async function insertVersion(db: Executor, row: BotVersionsTable): Promise<void> {
  await db.insertInto('bot_versions').values(row).execute()
}

export function findVersion(db: Executor, tenant: Tenant, botId: string, id: string): Promise<BotVersionsTable | undefined> {
  return scoped(db, tenant).selectFrom('bot_versions').selectAll().where('bot_id', '=', botId).where('id', '=', id).executeTakeFirst()
}

export function latestVersion(db: Executor, tenant: Tenant, botId: string): Promise<BotVersionsTable | undefined> {
  return scoped(db, tenant).selectFrom('bot_versions').selectAll().where('bot_id', '=', botId).orderBy('number', 'desc').limit(1).executeTakeFirst()
}

/** Newest first: version ids are time-ordered, like their numbers. */
export function listVersions(db: Executor, tenant: Tenant, botId: string, page: Page): Promise<BotVersionsTable[]> {
  let q = scoped(db, tenant).selectFrom('bot_versions').selectAll().where('bot_id', '=', botId)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

// ---- replies ----

export async function insertReply(db: Executor, row: BotRepliesTable): Promise<void> {
  await db.insertInto('bot_replies').values(row).execute()
}

/** The replies of one test conversation of a bot, oldest first (empty: no such test conversation). */
export function testReplies(db: Executor, tenant: Tenant, botId: string, conversationId: string): Promise<BotRepliesTable[]> {
  return scoped(db, tenant).selectFrom('bot_replies').selectAll().where('conversation_id', '=', conversationId).where('bot_id', '=', botId).where('test', '=', 1).orderBy('id').execute()
}

/** Replies given in the conversations (a data subject's, bots.privacy.ts), oldest first. */
export function repliesInConversations(db: Executor, tenant: Tenant, conversationIds: string[]): Promise<BotRepliesTable[]> {
  if (conversationIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('bot_replies').selectAll().where('conversation_id', 'in', conversationIds).orderBy('id').execute()
}

export async function deleteRepliesInConversations(db: Executor, tenant: Tenant, conversationIds: string[]): Promise<number> {
  if (conversationIds.length === 0) return 0
  const r = await scoped(db, tenant).deleteFrom('bot_replies').where('conversation_id', 'in', conversationIds).executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Health: the table answers (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('bots').select('id').limit(1).execute()
}

// ---- maintenance across every tenant (`svc secrets reseal`) ----

type ToolSecrets = Pick<BotToolsTable, 'id' | 'headers_sealed' | 'signing_secret_sealed'>

export function allToolSecrets(db: Executor, after: string | null, limit: number): Promise<ToolSecrets[]> {
  let q = db.selectFrom('bot_tools').select(['id', 'headers_sealed', 'signing_secret_sealed']).orderBy('id').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Rewrites one tool's sealed values if they are still what was read. */
export async function resealTool(db: Executor, from: ToolSecrets, to: Omit<ToolSecrets, 'id'>): Promise<boolean> {
  let q = db.updateTable('bot_tools').set(to).where('id', '=', from.id)
  q = from.headers_sealed === null ? q.where('headers_sealed', 'is', null) : q.where('headers_sealed', '=', from.headers_sealed)
  q = from.signing_secret_sealed === null ? q.where('signing_secret_sealed', 'is', null) : q.where('signing_secret_sealed', '=', from.signing_secret_sealed)
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1
}

export function allVersionConfigs(db: Executor, after: string | null, limit: number): Promise<Pick<BotVersionsTable, 'id' | 'config'>[]> {
  let q = db.selectFrom('bot_versions').select(['id', 'config']).orderBy('id').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** A version's config with its tools' values sealed anew: the same configuration, encrypted under the current secret. */
export async function resealVersion(db: Executor, id: string, from: string, to: string): Promise<boolean> {
  const r = await db.updateTable('bot_versions').set({ config: to }).where('id', '=', id).where('config', '=', from).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Test exchanges made before `before` (the `bot_test_exchanges` retention class). */
export async function countTestRepliesBefore(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('bot_replies')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('test', '=', 1)
    .where('created_at', '<', before)
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Deletes up to `limit` of them, oldest first; how many went. */
export async function deleteTestRepliesBefore(db: Executor, tenant: Tenant, before: string, limit: number): Promise<number> {
  const ids = await scoped(db, tenant).selectFrom('bot_replies').select('id').where('test', '=', 1).where('created_at', '<', before).orderBy('created_at').limit(limit).execute()
  if (ids.length === 0) return 0
  const r = await scoped(db, tenant)
    .deleteFrom('bot_replies')
    .where(
      'id',
      'in',
      ids.map((x) => x.id),
    )
    .executeTakeFirst()
  return Number(r.numDeletedRows)
}
