import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './leads.tables.js'
import type { LeadActivitiesTable, LeadsTable, LeadStatus } from './leads.tables.js'
import type { ListLeadsQueryT } from './leads.schemas.js'

// The only SQL of the leads module. Every function takes the tenant first.

type Page = { after: string | null; limit: number }

export async function insertLead(db: Executor, row: LeadsTable): Promise<void> {
  await db.insertInto('leads').values(row).execute()
}

export function findLead(db: Executor, tenant: Tenant, id: string): Promise<LeadsTable | undefined> {
  return scoped(db, tenant).selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst()
}

export function findLeadByEmail(db: Executor, tenant: Tenant, email: string): Promise<LeadsTable | undefined> {
  return scoped(db, tenant).selectFrom('leads').selectAll().where('email', '=', email).executeTakeFirst()
}

export function findLeadBySource(db: Executor, tenant: Tenant, source: string, sourceId: string): Promise<LeadsTable | undefined> {
  return scoped(db, tenant)
    .selectFrom('leads')
    .selectAll()
    .where('source', '=', source as LeadsTable['source'])
    .where('source_id', '=', sourceId)
    .executeTakeFirst()
}

export function listLeads(db: Executor, tenant: Tenant, q: ListLeadsQueryT, page: Page): Promise<LeadsTable[]> {
  let s = scoped(db, tenant).selectFrom('leads').selectAll()
  if (q.status) s = s.where('status', '=', q.status)
  if (q.owner_id) s = s.where('owner_id', '=', q.owner_id)
  if (q.source) s = s.where('source', '=', q.source)
  if (q.email) s = s.where('email', '=', q.email.toLowerCase())
  if (q.min_score !== undefined) s = s.where('score', '>=', q.min_score)
  if (q.max_score !== undefined) s = s.where('score', '<=', q.max_score)
  if (q.updated_after) s = s.where('updated_at', '>', q.updated_after)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateLead(db: Executor, tenant: Tenant, id: string, patch: Partial<LeadsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('leads').set(patch).where('id', '=', id).execute()
}

/** Moves the status only from `from` (a concurrent change makes this 0 rows). */
export async function moveStatus(db: Executor, tenant: Tenant, id: string, from: LeadStatus, patch: Partial<LeadsTable>): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable('leads').set(patch).where('id', '=', id).where('status', '=', from).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function deleteLead(db: Executor, tenant: Tenant, id: string): Promise<void> {
  await scoped(db, tenant).deleteFrom('lead_activities').where('lead_id', '=', id).execute()
  await scoped(db, tenant).deleteFrom('leads').where('id', '=', id).execute()
}

export async function insertActivity(db: Executor, row: LeadActivitiesTable): Promise<void> {
  await db.insertInto('lead_activities').values(row).execute()
}

export function listActivities(db: Executor, tenant: Tenant, leadId: string, page: Page): Promise<LeadActivitiesTable[]> {
  let s = scoped(db, tenant).selectFrom('lead_activities').selectAll().where('lead_id', '=', leadId)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function countEngagements(db: Executor, tenant: Tenant, leadId: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('lead_activities')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('lead_id', '=', leadId)
    .where('type', 'in', ['note', 'email', 'call', 'meeting', 'task'])
    .executeTakeFirst()
  return Number(r?.n ?? 0)
}

/** Health: the table answers (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('leads').select('id').limit(1).execute()
}

// ---- data subjects (leads.privacy.ts) ----

/** Leads with the subject's email (stored lower-cased) or phone (E.164). */
export function leadsOfSubject(db: Executor, tenant: Tenant, s: { email: string | null; phone: string | null }): Promise<LeadsTable[]> {
  if (!s.email && !s.phone) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('leads')
    .selectAll()
    .where((eb) => eb.or([...(s.email ? [eb('email', '=', s.email.toLowerCase())] : []), ...(s.phone ? [eb('phone', '=', s.phone)] : [])]))
    .orderBy('id')
    .execute()
}

export function activitiesOfLeads(db: Executor, tenant: Tenant, leadIds: string[]): Promise<LeadActivitiesTable[]> {
  if (leadIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('lead_activities').selectAll().where('lead_id', 'in', leadIds).orderBy('id').execute()
}

/** Leads with their activities; rows deleted (leads + activities). */
export async function deleteLeads(db: Executor, tenant: Tenant, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0
  const activities = await scoped(db, tenant).deleteFrom('lead_activities').where('lead_id', 'in', ids).executeTakeFirst()
  const leads = await scoped(db, tenant).deleteFrom('leads').where('id', 'in', ids).executeTakeFirst()
  return Number(activities.numDeletedRows) + Number(leads.numDeletedRows)
}
