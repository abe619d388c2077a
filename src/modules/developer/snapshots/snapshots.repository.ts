import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import './snapshots.tables.js'
import type { OpenApiSnapshotsTable } from './snapshots.tables.js'

// The only SQL of the snapshots part. Every function takes the tenant first.

type Page = { after: string | null; limit: number }

export async function insertSnapshot(db: Executor, row: OpenApiSnapshotsTable): Promise<void> {
  await db.insertInto('developer_openapi_snapshots').values(row).execute()
}

/** The tenant's newest snapshot: the one the next diff is taken from. */
export function latestSnapshot(db: Executor, tenant: Tenant): Promise<OpenApiSnapshotsTable | undefined> {
  return scoped(db, tenant).selectFrom('developer_openapi_snapshots').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst()
}

/** Newest first. */
export function listSnapshots(db: Executor, tenant: Tenant, q: { id?: string }, page: Page): Promise<OpenApiSnapshotsTable[]> {
  let s = scoped(db, tenant).selectFrom('developer_openapi_snapshots').selectAll()
  if (q.id) s = s.where('id', '=', q.id)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}
