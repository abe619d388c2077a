import { sql, SqliteAdapter } from 'kysely'
import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import './agents.tables.js'
import type { AgentApprovalsTable, AgentRunsTable, AgentRunStepsTable, AgentsTable, ApprovalStatus, RunStatus } from './agents.tables.js'

// The only SQL of the agents module. Every function takes the tenant first. State changes of runs and
// approvals are guarded updates (`where status in …`): the number of rows changed says who won a race.

type Page = { after: string | null; limit: number }
const lockable = (db: Executor, forUpdate: boolean | undefined): boolean => !!forUpdate && !(db.getExecutor().adapter instanceof SqliteAdapter)
const changed = (r: { numUpdatedRows: bigint } | undefined): number => Number(r?.numUpdatedRows ?? 0)

// ---- agents ----

export async function insertAgent(db: Executor, row: AgentsTable): Promise<void> {
  await db.insertInto('agents').values(row).execute()
}

export function findAgent(db: Executor, tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<AgentsTable | undefined> {
  const q = scoped(db, tenant).selectFrom('agents').selectAll().where('id', '=', id)
  return (lockable(db, opts.forUpdate) ? q.forUpdate() : q).executeTakeFirst()
}

export function listAgents(db: Executor, tenant: Tenant, page: Page & { status?: 'active' | 'disabled' }): Promise<AgentsTable[]> {
  let q = scoped(db, tenant).selectFrom('agents').selectAll()
  if (page.status) q = q.where('status', '=', page.status)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

export async function updateAgent(db: Executor, tenant: Tenant, id: string, patch: Partial<AgentsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('agents').set(patch).where('id', '=', id).execute()
}

// ---- runs ----

export async function insertRun(db: Executor, row: AgentRunsTable): Promise<void> {
  await db.insertInto('agent_runs').values(row).execute()
}

export function findRun(db: Executor, tenant: Tenant, id: string, agentId?: string): Promise<AgentRunsTable | undefined> {
  let q = scoped(db, tenant).selectFrom('agent_runs').selectAll().where('id', '=', id)
  if (agentId) q = q.where('agent_id', '=', agentId)
  return q.executeTakeFirst()
}

export function listRuns(db: Executor, tenant: Tenant, agentId: string, page: Page & { status?: RunStatus }): Promise<AgentRunsTable[]> {
  let q = scoped(db, tenant).selectFrom('agent_runs').selectAll().where('agent_id', '=', agentId)
  if (page.status) q = q.where('status', '=', page.status)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** Moves a run from one of `from` only; returns whether it did (0 rows: someone else moved it first). */
export async function transitionRun(db: Executor, tenant: Tenant, id: string, from: RunStatus[], patch: Partial<AgentRunsTable>): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable('agent_runs').set(patch).where('id', '=', id).where('status', 'in', from).executeTakeFirst()
  return changed(r) === 1
}

/** `%needle%` for LIKE, lower-cased, its wildcards taken literally (backslash-escaped). */
const likePattern = (needle: string) => `%${needle.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`

/**
 * Runs about a data subject (agents.privacy.ts): in one of the conversations, or whose input (its JSON
 * text) contains one of `needles` case-insensitively — candidates, which the caller checks. A scan of the
 * tenant's runs.
 */
export function runsOfSubject(db: Executor, tenant: Tenant, conversationIds: string[], needles: string[]): Promise<AgentRunsTable[]> {
  if (conversationIds.length === 0 && needles.length === 0) return Promise.resolve([])
  return scoped(db, tenant)
    .selectFrom('agent_runs')
    .selectAll()
    .where((eb) =>
      eb.or([...(conversationIds.length > 0 ? [eb('conversation_id', 'in', conversationIds)] : []), ...needles.map((n) => sql<boolean>`lower(${eb.ref('input')}) like ${likePattern(n)} escape '\\'`)]),
    )
    .orderBy('id')
    .execute()
}

export function stepsOfRuns(db: Executor, tenant: Tenant, runIds: string[]): Promise<AgentRunStepsTable[]> {
  if (runIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('agent_run_steps').selectAll().where('run_id', 'in', runIds).orderBy('run_id').orderBy('position').execute()
}

export function approvalsOfRuns(db: Executor, tenant: Tenant, runIds: string[]): Promise<AgentApprovalsTable[]> {
  if (runIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('agent_approvals').selectAll().where('run_id', 'in', runIds).orderBy('id').execute()
}

/** The runs made in a conversation (any status). */
export async function runIdsOfConversation(db: Executor, tenant: Tenant, conversationId: string): Promise<string[]> {
  return (await scoped(db, tenant).selectFrom('agent_runs').select('id').where('conversation_id', '=', conversationId).execute()).map((r) => r.id)
}

/** Runs with their steps and approvals; rows deleted in all three. */
export async function deleteRuns(db: Executor, tenant: Tenant, runIds: string[]): Promise<number> {
  if (runIds.length === 0) return 0
  const approvals = await scoped(db, tenant).deleteFrom('agent_approvals').where('run_id', 'in', runIds).executeTakeFirst()
  const steps = await scoped(db, tenant).deleteFrom('agent_run_steps').where('run_id', 'in', runIds).executeTakeFirst()
  const runs = await scoped(db, tenant).deleteFrom('agent_runs').where('id', 'in', runIds).executeTakeFirst()
  return Number(approvals.numDeletedRows) + Number(steps.numDeletedRows) + Number(runs.numDeletedRows)
}

export async function updateRun(db: Executor, tenant: Tenant, id: string, patch: Partial<AgentRunsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('agent_runs').set(patch).where('id', '=', id).execute()
}

export async function addTokens(db: Executor, tenant: Tenant, id: string, prompt: number, completion: number): Promise<void> {
  await scoped(db, tenant)
    .updateTable('agent_runs')
    .set((eb) => ({ prompt_tokens: eb('prompt_tokens', '+', prompt), completion_tokens: eb('completion_tokens', '+', completion) }))
    .where('id', '=', id)
    .execute()
}

/**
 * The run's lease: one worker executes a run at a time. Taken when free, expired, or already this
 * worker's; while held, only its holder writes the run's steps.
 */
export async function claimRun(db: Executor, tenant: Tenant, id: string, workerId: string, now: string, until: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('agent_runs')
    .set({ worker_id: workerId, lease_until: until })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now), eb('worker_id', '=', workerId)]))
    .executeTakeFirst()
  return changed(r) === 1
}

export async function releaseRun(db: Executor, tenant: Tenant, id: string, workerId: string): Promise<void> {
  await scoped(db, tenant).updateTable('agent_runs').set({ worker_id: null, lease_until: null }).where('id', '=', id).where('worker_id', '=', workerId).execute()
}

// ---- steps ----

export async function insertStep(db: Executor, row: AgentRunStepsTable): Promise<void> {
  await db.insertInto('agent_run_steps').values(row).execute()
}

export function stepsOf(db: Executor, tenant: Tenant, runId: string): Promise<AgentRunStepsTable[]> {
  return scoped(db, tenant).selectFrom('agent_run_steps').selectAll().where('run_id', '=', runId).orderBy('position').execute()
}

export async function updateStep(db: Executor, tenant: Tenant, id: string, patch: Partial<AgentRunStepsTable>): Promise<void> {
  await scoped(db, tenant).updateTable('agent_run_steps').set(patch).where('id', '=', id).execute()
}

// ---- approvals ----

export async function insertApproval(db: Executor, row: AgentApprovalsTable): Promise<void> {
  await db.insertInto('agent_approvals').values(row).execute()
}

export function findApproval(db: Executor, tenant: Tenant, id: string): Promise<AgentApprovalsTable | undefined> {
  return scoped(db, tenant).selectFrom('agent_approvals').selectAll().where('id', '=', id).executeTakeFirst()
}

export function approvalsOfRun(db: Executor, tenant: Tenant, runId: string): Promise<AgentApprovalsTable[]> {
  return scoped(db, tenant).selectFrom('agent_approvals').selectAll().where('run_id', '=', runId).orderBy('id').execute()
}

export function pendingApprovals(db: Executor, tenant: Tenant, runIds: string[]): Promise<AgentApprovalsTable[]> {
  if (runIds.length === 0) return Promise.resolve([])
  return scoped(db, tenant).selectFrom('agent_approvals').selectAll().where('run_id', 'in', runIds).where('status', '=', 'pending').execute()
}

export function listApprovals(db: Executor, tenant: Tenant, agentId: string, page: Page & { status?: ApprovalStatus }): Promise<AgentApprovalsTable[]> {
  let q = scoped(db, tenant).selectFrom('agent_approvals').selectAll().where('agent_id', '=', agentId)
  if (page.status) q = q.where('status', '=', page.status)
  if (page.after) q = q.where('id', '<', page.after)
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute()
}

/** Decides a pending approval; false when it was not pending any more (another decision won). */
export async function decideApproval(db: Executor, tenant: Tenant, id: string, patch: Partial<AgentApprovalsTable>): Promise<boolean> {
  const r = await scoped(db, tenant).updateTable('agent_approvals').set(patch).where('id', '=', id).where('status', '=', 'pending').executeTakeFirst()
  return changed(r) === 1
}

/** Maintenance across every tenant (`svc secrets reseal`): agents with their sealed values. */
export function allAgentSecrets(db: Executor, after: string | null, limit: number): Promise<Pick<AgentsTable, 'id' | 'signing_secret_sealed' | 'tools'>[]> {
  let q = db.selectFrom('agents').select(['id', 'signing_secret_sealed', 'tools']).orderBy('id').limit(limit)
  if (after) q = q.where('id', '>', after)
  return q.execute()
}

/** Rewrites one agent's sealed values if they are still what was read (a concurrent update wins). */
export async function resealAgent(db: Executor, id: string, from: Pick<AgentsTable, 'signing_secret_sealed' | 'tools'>, to: Pick<AgentsTable, 'signing_secret_sealed' | 'tools'>): Promise<boolean> {
  const r = await db.updateTable('agents').set(to).where('id', '=', id).where('signing_secret_sealed', '=', from.signing_secret_sealed).where('tools', '=', from.tools).executeTakeFirst()
  return changed(r) === 1
}

/** Health: the table answers (any tenant, one row at most). */
export async function probe(db: Executor): Promise<void> {
  await db.selectFrom('agents').select('id').limit(1).execute()
}
