import type { Executor } from '../../kernel/db/database.js'
import type { AuditLogTable } from '../../kernel/db/kernel.tables.js'
import { scoped, workspaceScoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './compliance.tables.js'
import type { ListAuditLogQueryT, ListDsarQueryT, ListEvidenceQueryT } from './compliance.schemas.js'
import type { ComplianceEvidenceTable, DsarRequestsTable, RetentionPoliciesTable, RetentionRunsTable } from './compliance.tables.js'

// The only SQL of the compliance module. Every function takes the tenant first (the export link, which
// arrives without one, finds its request by the token's hash).

type Page = { after: string | null; limit: number }

export function listAudit(db: Executor, tenant: Tenant, q: ListAuditLogQueryT, page: Page): Promise<AuditLogTable[]> {
  let s = scoped(db, tenant).selectFrom('audit_log').selectAll()
  if (q.actor_type) s = s.where('actor_type', '=', q.actor_type)
  if (q.actor_id) s = s.where('actor_id', '=', q.actor_id)
  if (q.action) s = s.where('action', '=', q.action)
  if (q.target_id) s = s.where('target_id', '=', q.target_id)
  if (q.from) s = s.where('occurred_at', '>=', q.from)
  if (q.to) s = s.where('occurred_at', '<', q.to)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export function auditAbout(db: Executor, tenant: Tenant, targetIds: string[]): Promise<AuditLogTable[]> {
  if (targetIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('audit_log').selectAll().where('target_id', 'in', targetIds).orderBy('id').execute()
}

export function countAudit(db: Executor, tenant: Tenant, from: string, to: string): Promise<{ n: number }> {
  return scoped(db, tenant)
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('occurred_at', '>=', from)
    .where('occurred_at', '<', to)
    .executeTakeFirstOrThrow()
    .then((r) => ({ n: Number(r.n) }))
}

/** Audit entries older than `before`, oldest first (retention of the audit log itself). */
export async function purgeAudit(db: Executor, tenant: Tenant, before: string, limit: number): Promise<number> {
  const ids = await scoped(db, tenant).selectFrom('audit_log').select('id').where('occurred_at', '<', before).where('seq', 'is not', null).orderBy('seq').limit(limit).execute()
  if (ids.length === 0) return 0
  const r = await scoped(db, tenant)
    .deleteFrom('audit_log')
    .where(
      'id',
      'in',
      ids.map((x) => x.id),
    )
    .executeTakeFirst()
  return Number(r.numDeletedRows)
}
export async function countAuditBefore(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('occurred_at', '<', before)
    .where('seq', 'is not', null)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

export async function insertDsar(db: Executor, row: DsarRequestsTable): Promise<void> {
  await db.insertInto('dsar_requests').values(row).execute()
}
export function findDsar(db: Executor, tenant: Tenant, id: string): Promise<DsarRequestsTable | undefined> {
  return scoped(db, tenant).selectFrom('dsar_requests').selectAll().where('id', '=', id).executeTakeFirst()
}
export function findDsarByToken(db: Executor, tokenHash: string): Promise<DsarRequestsTable | undefined> {
  return db.selectFrom('dsar_requests').selectAll().where('export_token_hash', '=', tokenHash).executeTakeFirst()
}
export function listDsar(db: Executor, tenant: Tenant, q: ListDsarQueryT, page: Page): Promise<DsarRequestsTable[]> {
  let s = scoped(db, tenant).selectFrom('dsar_requests').selectAll()
  if (q.status) s = s.where('status', '=', q.status)
  if (q.type) s = s.where('type', '=', q.type)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}
export function dsarsIn(db: Executor, tenant: Tenant, from: string, to: string): Promise<DsarRequestsTable[]> {
  return scoped(db, tenant)
    .selectFrom('dsar_requests')
    .selectAll()
    .where('created_at', '<', to)
    .where((eb) => eb.or([eb('completed_at', 'is', null), eb('completed_at', '>=', from)]))
    .orderBy('id')
    .execute()
}
export async function updateDsar(db: Executor, tenant: Tenant, id: string, patch: Partial<DsarRequestsTable>, expect?: Partial<Pick<DsarRequestsTable, 'status' | 'export_status'>>): Promise<boolean> {
  let q = scoped(db, tenant).updateTable('dsar_requests').set(patch).where('id', '=', id)
  if (expect?.status) q = q.where('status', '=', expect.status)
  if (expect?.export_status) q = q.where('export_status', '=', expect.export_status)
  return Number((await q.executeTakeFirst()).numUpdatedRows) === 1
}
/** Exports past their expiry, for retention of `dsar_exports` (their files are deleted, the request kept). */
export function exportsBefore(db: Executor, tenant: Tenant, before: string, limit: number): Promise<DsarRequestsTable[]> {
  return scoped(db, tenant).selectFrom('dsar_requests').selectAll().where('export_status', '=', 'ready').where('updated_at', '<', before).orderBy('updated_at').limit(limit).execute()
}

export function findPolicies(db: Executor, tenant: Tenant): Promise<RetentionPoliciesTable | undefined> {
  return scoped(db, tenant).selectFrom('retention_policies').selectAll().executeTakeFirst()
}
export async function savePolicies(db: Executor, row: RetentionPoliciesTable): Promise<void> {
  await db
    .insertInto('retention_policies')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'mode']).doUpdateSet({ policies: row.policies, updated_at: row.updated_at }))
    .execute()
}
export function allPolicies(db: Executor): Promise<RetentionPoliciesTable[]> {
  return db.selectFrom('retention_policies').selectAll().execute()
}
export async function insertRun(db: Executor, row: RetentionRunsTable): Promise<void> {
  await db.insertInto('retention_runs').values(row).execute()
}
export function runsIn(db: Executor, tenant: Tenant, from: string, to: string): Promise<RetentionRunsTable[]> {
  return scoped(db, tenant).selectFrom('retention_runs').selectAll().where('finished_at', '>=', from).where('finished_at', '<', to).orderBy('finished_at').execute()
}
export function lastRun(db: Executor, tenant: Tenant): Promise<RetentionRunsTable | undefined> {
  return scoped(db, tenant).selectFrom('retention_runs').selectAll().orderBy('finished_at', 'desc').limit(1).executeTakeFirst()
}

export async function insertEvidence(db: Executor, row: ComplianceEvidenceTable): Promise<void> {
  await db.insertInto('compliance_evidence').values(row).execute()
}
export function findEvidence(db: Executor, tenant: Tenant, id: string): Promise<ComplianceEvidenceTable | undefined> {
  return scoped(db, tenant).selectFrom('compliance_evidence').selectAll().where('id', '=', id).executeTakeFirst()
}
export function listEvidence(db: Executor, tenant: Tenant, q: ListEvidenceQueryT, page: Page): Promise<ComplianceEvidenceTable[]> {
  let s = scoped(db, tenant).selectFrom('compliance_evidence').selectAll()
  if (q.kind) s = s.where('kind', '=', q.kind)
  if (page.after) s = s.where('id', '<', page.after)
  return s
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}
export function scheduledEvidence(db: Executor, tenant: Tenant, kind: string, from: string): Promise<ComplianceEvidenceTable | undefined> {
  return scoped(db, tenant)
    .selectFrom('compliance_evidence')
    .selectAll()
    .where('kind', '=', kind as ComplianceEvidenceTable['kind'])
    .where('period_from', '=', from)
    .where('trigger', '=', 'schedule')
    .executeTakeFirst()
}

/** Health: the tables answer. */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('dsar_requests').select('id').limit(1).execute()
}

/** Per API key of the tenant, its newest audited change (access reviews show it as "last change"). */
export async function lastWriteByKey(db: Executor, tenant: Tenant): Promise<{ actor_id: string; last: string }[]> {
  const rows = await scoped(db, tenant)
    .selectFrom('audit_log')
    .select(['actor_id', (eb) => eb.fn.max('occurred_at').as('last')])
    .where('actor_type', '=', 'api_key')
    .groupBy('actor_id')
    .execute()
  return rows.filter((r) => r.actor_id).map((r) => ({ actor_id: r.actor_id!, last: String(r.last) }))
}

/** Daily request counts (the API's logs) of days before `before` (YYYY-MM-DD…). */
export async function countRequestDays(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('request_counts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('day', '<', before.slice(0, 10))
    .executeTakeFirstOrThrow()
  return Number(r.n)
}
export async function purgeRequestDays(db: Executor, tenant: Tenant, before: string, limit: number): Promise<number> {
  const days = await scoped(db, tenant).selectFrom('request_counts').select(['day', 'module', 'operation_id']).where('day', '<', before.slice(0, 10)).orderBy('day').limit(limit).execute()
  let n = 0
  for (const d of days) {
    const r = await scoped(db, tenant).deleteFrom('request_counts').where('day', '=', d.day).where('module', '=', d.module).where('operation_id', '=', d.operation_id).executeTakeFirst()
    n += Number(r.numDeletedRows)
  }
  return n
}
export async function countExportsBefore(db: Executor, tenant: Tenant, before: string): Promise<number> {
  const r = await scoped(db, tenant)
    .selectFrom('dsar_requests')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('export_status', '=', 'ready')
    .where('updated_at', '<', before)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

/** Workspace modes that have audit entries (the evidence schedule covers them). */
export function tenantsWithAudit(db: Executor): Promise<{ workspace_id: string; mode: Tenant['mode'] }[]> {
  return db.selectFrom('audit_log').select(['workspace_id', 'mode']).groupBy(['workspace_id', 'mode']).execute()
}

/** The chain head the newest audit-chain evidence of the workspace recorded ("#seq hash"), if any. */
export async function lastChainAnchor(db: Executor, workspaceId: string): Promise<{ seq: number; hash: string; evidenceId: string } | null> {
  const row = await workspaceScoped(db, workspaceId).selectFrom('compliance_evidence').select(['id', 'summary']).where('kind', '=', 'audit_chain').orderBy('id', 'desc').limit(1).executeTakeFirst()
  const head = row ? (JSON.parse(row.summary) as Record<string, string>)['Chain head'] : undefined
  const m = head ? /^#(\d+) ([0-9a-f]{64})$/.exec(head) : null
  return m ? { seq: Number(m[1]), hash: m[2], evidenceId: row!.id } : null
}
export function chainEntry(db: Executor, workspaceId: string, seq: number): Promise<AuditLogTable | undefined> {
  return workspaceScoped(db, workspaceId).selectFrom('audit_log').selectAll().where('seq', '=', seq).executeTakeFirst()
}

/** The tenant's finished (or not yet started) requests about the subject by any identifier (compliance.privacy.ts); one in progress is being worked. */
export function dsarsOfSubject(db: Executor, tenant: Tenant, s: { email: string | null; phone: string | null; external_id: string | null }): Promise<DsarRequestsTable[]> {
  if (!s.email && !s.phone && !s.external_id) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('dsar_requests')
    .selectAll()
    .where('status', '!=', 'in_progress')
    .where((eb) =>
      eb.or([
        ...(s.email ? [eb('subject_email', '=', s.email)] : []),
        ...(s.phone ? [eb('subject_phone', '=', s.phone)] : []),
        ...(s.external_id ? [eb('subject_external_id', '=', s.external_id)] : []),
      ]),
    )
    .orderBy('id')
    .execute()
}
