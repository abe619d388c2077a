import { sql } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import './workspaces.tables.js'
import type { WorkspaceMembersTable, WorkspaceSettingsTable, WorkspacesTable } from './workspaces.tables.js'
import { prepared } from '../../kernel/db/prepared.js'
import { scoped } from '../../kernel/db/scoped.js'

// The only SQL of the module. Every function takes the tenant first; another workspace's row is not found.

export function findWorkspace(db: Executor, tenant: Tenant): Promise<WorkspacesTable | undefined> {
  return findWorkspaceQ.first(db, { id: tenant.workspaceId })
}
const findWorkspaceQ = prepared((db, a: { id: string }) => db.selectFrom('workspaces').selectAll().where('id', '=', a.id))

/**
 * The workspace and the tenant's settings row (undefined when none was saved) in one statement: the read
 * behind getCurrentWorkspace, where two statements were two round trips on PostgreSQL.
 */
export async function findWorkspaceWithSettings(db: Executor, tenant: Tenant): Promise<{ workspace: WorkspacesTable; settings: WorkspaceSettingsTable | undefined } | undefined> {
  const r = await findWithSettingsQ.first(db, { id: tenant.workspaceId, mode: tenant.mode })
  if (!r) return undefined
  const { settings_mode, settings_crm, settings_lead_auto_create_score, settings_voice, settings_updated_at, ...workspace } = r
  const settings =
    settings_mode === null
      ? undefined
      : { workspace_id: workspace.id, mode: settings_mode, crm: settings_crm, lead_auto_create_score: settings_lead_auto_create_score, voice: settings_voice, updated_at: settings_updated_at! }
  return { workspace, settings }
}
const findWithSettingsQ = prepared((db, a: { id: string; mode: Tenant['mode'] }) =>
  db
    .selectFrom('workspaces as w')
    .leftJoin('workspace_settings as s', (j) => j.onRef('s.workspace_id', '=', 'w.id').on('s.mode', '=', a.mode))
    .selectAll('w')
    .select(['s.mode as settings_mode', 's.crm as settings_crm', 's.lead_auto_create_score as settings_lead_auto_create_score', 's.voice as settings_voice', 's.updated_at as settings_updated_at'])
    .where('w.id', '=', a.id),
)

export async function insertWorkspace(db: Executor, row: WorkspacesTable): Promise<void> {
  await db.insertInto('workspaces').values(row).execute()
}

export async function updateWorkspace(db: Executor, tenant: Tenant, patch: Partial<WorkspacesTable>): Promise<void> {
  await db.updateTable('workspaces').set(patch).where('id', '=', tenant.workspaceId).execute()
}

export function firstWorkspace(db: Executor): Promise<WorkspacesTable | undefined> {
  return db.selectFrom('workspaces').selectAll().orderBy('id').limit(1).executeTakeFirst()
}

export function listMembers(db: Executor, tenant: Tenant, opts: { after: string | null; limit: number }): Promise<WorkspaceMembersTable[]> {
  return listMembersQ.all(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, after: opts.after ?? undefined, take: opts.limit + 1 })
}
const listMembersQ = prepared((db, a: Tenant & { after?: string; take: number }) => {
  let q = scoped(db, a).selectFrom('workspace_members').selectAll().orderBy('id', 'desc').limit(a.take)
  if (a.after) q = q.where('id', '<', a.after)
  return q
})

export function findMember(db: Executor, tenant: Tenant, id: string): Promise<WorkspaceMembersTable | undefined> {
  return findMemberQ.first(db, { workspaceId: tenant.workspaceId, mode: tenant.mode, id })
}
const findMemberQ = prepared((db, a: Tenant & { id: string }) => scoped(db, a).selectFrom('workspace_members').selectAll().where('id', '=', a.id))

export async function insertMember(db: Executor, row: WorkspaceMembersTable): Promise<void> {
  await db.insertInto('workspace_members').values(row).execute()
}

export async function updateMember(db: Executor, tenant: Tenant, id: string, patch: Partial<WorkspaceMembersTable>): Promise<void> {
  await scoped(db, tenant).updateTable('workspace_members').set(patch).where('id', '=', id).execute()
}

export async function deleteMember(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('workspace_members').where('id', '=', id).execute()
}

export async function countOwners(db: Executor, tenant: Tenant): Promise<number> {
  const row = await scoped(db, tenant)
    .selectFrom('workspace_members')
    .select(sql<number>`count(*)`.as('n'))
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export function requestCounts(db: Executor, tenant: Tenant, from: string, to: string) {
  return scoped(db, tenant)
    .selectFrom('request_counts')
    .select(['day', 'module', sql<number>`sum(count)`.as('count'), sql<number>`sum(errors)`.as('errors')])
    .where('day', '>=', from)
    .where('day', '<=', to)
    .groupBy(['day', 'module'])
    .execute()
}

// Read in every inbound message's transaction (the leads auto-create check): built and compiled once.
export function findSettings(db: Executor, tenant: Tenant): Promise<WorkspaceSettingsTable | undefined> {
  return findSettingsQ.first(db, { workspaceId: tenant.workspaceId, mode: tenant.mode })
}
const findSettingsQ = prepared((db, a: Tenant) => scoped(db, a).selectFrom('workspace_settings').selectAll())

/** Inserts or updates the tenant's settings row (one per workspace and mode). */
export async function saveSettings(db: Executor, row: WorkspaceSettingsTable): Promise<void> {
  await db
    .insertInto('workspace_settings')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'mode']).doUpdateSet({ crm: row.crm, lead_auto_create_score: row.lead_auto_create_score, voice: row.voice, updated_at: row.updated_at }))
    .execute()
}

/** Maintenance across every tenant (`svc secrets reseal`): settings rows with a CRM or a voice carrier, after `after` in (workspace, mode) order. */
export function allSealedSettings(db: Executor, after: Tenant | null, limit: number): Promise<Pick<WorkspaceSettingsTable, 'workspace_id' | 'mode' | 'crm' | 'voice'>[]> {
  let q = db
    .selectFrom('workspace_settings')
    .select(['workspace_id', 'mode', 'crm', 'voice'])
    .where((eb) => eb.or([eb('crm', 'is not', null), eb('voice', 'is not', null)]))
    .orderBy('workspace_id')
    .orderBy('mode')
    .limit(limit)
  if (after) q = q.where((eb) => eb.or([eb('workspace_id', '>', after.workspaceId), eb.and([eb('workspace_id', '=', after.workspaceId), eb('mode', '>', after.mode)])]))
  return q.execute()
}

/** Rewrites one tenant's sealed settings column if it is still what was read. */
export async function resealColumn(db: Executor, tenant: Tenant, column: 'crm' | 'voice', from: string, to: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('workspace_settings')
    .set({ [column]: to })
    .where(column, '=', from)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}
