import type { Executor } from '../../../kernel/db/database.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ListSandboxWorkspacesQueryT } from './sandbox.schemas.js'
import type { DeveloperSandboxWorkspacesTable, SandboxStatus } from './sandbox.tables.js'
import './sandbox.tables.js'

const TABLE = 'developer_sandbox_workspaces'

export async function insertSandbox(db: Executor, row: DeveloperSandboxWorkspacesTable): Promise<void> {
  await db.insertInto(TABLE).values(row).execute()
}

export function findSandbox(db: Executor, tenant: Tenant, id: string): Promise<DeveloperSandboxWorkspacesTable | undefined> {
  return scoped(db, tenant).selectFrom(TABLE).selectAll().where('id', '=', id).executeTakeFirst()
}

/** Whether a workspace is itself someone's sandbox (across tenants: the parent is not known here). */
export async function isSandboxWorkspace(db: Executor, workspaceId: string): Promise<boolean> {
  return !!(await db.selectFrom(TABLE).select('id').where('sandbox_workspace_id', '=', workspaceId).executeTakeFirst())
}

export async function countSandboxes(db: Executor, tenant: Tenant): Promise<number> {
  const row = await scoped(db, tenant)
    .selectFrom(TABLE)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function listSandboxes(db: Executor, tenant: Tenant, q: ListSandboxWorkspacesQueryT, page: { after: string | null; limit: number }): Promise<DeveloperSandboxWorkspacesTable[]> {
  let s = scoped(db, tenant).selectFrom(TABLE).selectAll()
  if (q.status) s = s.where('status', '=', q.status)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** A guarded update: only while the sandbox is still in `expect` (a finished seeding is never reopened). */
export async function updateSandbox(db: Executor, tenant: Tenant, id: string, patch: Partial<DeveloperSandboxWorkspacesTable>, expect: SandboxStatus): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable(TABLE).set(patch).where('id', '=', id).where('status', '=', expect).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
