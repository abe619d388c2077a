import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ListSdkGenerationsQueryT } from './sdk-generations.schemas.js'
import type { DeveloperSdkGenerationsTable, SdkGenerationStatus } from './sdk-generations.tables.js'
import './sdk-generations.tables.js'

const TABLE = 'developer_sdk_generations'

export async function insertGeneration(db: Executor, row: DeveloperSdkGenerationsTable): Promise<void> {
  await db.insertInto(TABLE).values(row).execute()
}

export function findGeneration(db: Executor, tenant: Tenant, id: string): Promise<DeveloperSdkGenerationsTable | undefined> {
  return scoped(db, tenant).selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirst()
}

/** By its download token's hash: the link names no workspace (the token is the credential). */
export function findGenerationByToken(db: Executor, tokenHash: string): Promise<DeveloperSdkGenerationsTable | undefined> {
  return db.selectFrom(TABLE).selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
}

export async function countPending(db: Executor, tenant: Tenant): Promise<number> {
  const row = await scoped(db, tenant)
    .selectFrom(TABLE)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function listGenerations(db: Executor, tenant: Tenant, q: ListSdkGenerationsQueryT, page: { after: string | null; limit: number }): Promise<DeveloperSdkGenerationsTable[]> {
  let s = scoped(db, tenant).selectFrom(TABLE).selectAll()
  if (q.language) s = s.where('language', '=', q.language)
  if (q.status) s = s.where('status', '=', q.status)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** A guarded update: only while the generation is in one of `expect`. */
export async function updateGeneration(db: Executor, tenant: Tenant, id: string, patch: Partial<DeveloperSdkGenerationsTable>, expect: SdkGenerationStatus[]): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable(TABLE).set(patch).where('id', '=', id).where('status', 'in', expect).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Succeeded generations whose link expired before `now` and whose archive is still stored (all workspaces). */
export function expiredArchives(db: Executor, now: string, limit: number): Promise<DeveloperSdkGenerationsTable[]> {
  return db.selectFrom(TABLE).selectAll().where('status', '=', 'succeeded').where('expires_at', '<', now).where('archive_key', 'is not', null).orderBy('expires_at').limit(limit).execute()
}

export async function clearArchiveKey(db: Executor, tenant: Tenant, id: string, key: string): Promise<void> {
  await scoped(db, tenant).updateTable(TABLE).set({ archive_key: null }).where('id', '=', id).where('archive_key', '=', key).execute()
}
