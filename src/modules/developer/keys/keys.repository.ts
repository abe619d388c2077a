import type { Executor } from '../../../kernel/db/database.js'
import type { ApiKeysTable } from '../../../kernel/db/kernel.tables.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'

type Page = { after: string | null; limit: number }

/** The tenant's keys, newest first. */
export function listKeys(db: Executor, tenant: Tenant, q: { status?: 'active' | 'revoked' }, page: Page): Promise<ApiKeysTable[]> {
  let s = scoped(db, tenant).selectFrom('api_keys').selectAll()
  if (q.status === 'active') s = s.where('revoked_at', 'is', null)
  if (q.status === 'revoked') s = s.where('revoked_at', 'is not', null)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export function findKey(db: Executor, tenant: Tenant, id: string): Promise<ApiKeysTable | undefined> {
  return scoped(db, tenant).selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst()
}
