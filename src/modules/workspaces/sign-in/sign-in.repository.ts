import { sql } from 'kysely'
import type { Executor } from '../../../kernel/db/database.js'
import { prepared } from '../../../kernel/db/prepared.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import '../workspaces.tables.js'
import type { MemberRole, WorkspaceMembersTable } from '../workspaces.tables.js'
import './sign-in.tables.js'
import type { MemberCredentialsTable, MemberSessionsTable } from './sign-in.tables.js'

// The sign-in's SQL. A member's identity is their email across workspaces: these queries look members up
// by email or invitation token (never by a tenant), and change a membership only through `scoped`.

export interface Membership {
  member_id: string
  workspace_id: string
  workspace_name: string
  mode: Mode
  role: MemberRole
}

export const findCredentials = (db: Executor, email: string): Promise<MemberCredentialsTable | undefined> => findCredentialsQ.first(db, { email })
const findCredentialsQ = prepared((db, a: { email: string }) => db.selectFrom('member_credentials').selectAll().where('email', '=', a.email))

export async function saveCredentials(db: Executor, row: MemberCredentialsTable): Promise<void> {
  await db
    .insertInto('member_credentials')
    .values(row)
    .onConflict((oc) => oc.column('email').doUpdateSet({ password_hash: row.password_hash, updated_at: row.updated_at }))
    .execute()
}

/** Active memberships of an email, with their workspace's name, in a stable order. */
export function activeMemberships(db: Executor, email: string): Promise<Membership[]> {
  return membershipsQ.all(db, { email })
}
const membershipsQ = prepared((db, a: { email: string }) =>
  db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .select(['workspace_members.id as member_id', 'workspace_members.workspace_id', 'workspaces.name as workspace_name', 'workspace_members.mode', 'workspace_members.role'])
    .where('workspace_members.email', '=', a.email)
    .where('workspace_members.status', '=', 'active')
    .orderBy('workspaces.name')
    .orderBy('workspace_members.workspace_id')
    .orderBy('workspace_members.mode'),
)

/** How many memberships (any status) an email has: the CLI sets passwords only for members. */
export async function countMemberships(db: Executor, email: string): Promise<number> {
  const r = await db
    .selectFrom('workspace_members')
    .select(sql<number>`count(*)`.as('n'))
    .where('email', '=', email)
    .executeTakeFirstOrThrow()
  return Number(r.n)
}

export function findInvitation(db: Executor, token: string): Promise<(WorkspaceMembersTable & { workspace_name: string }) | undefined> {
  return db
    .selectFrom('workspace_members')
    .innerJoin('workspaces', 'workspaces.id', 'workspace_members.workspace_id')
    .selectAll('workspace_members')
    .select('workspaces.name as workspace_name')
    .where('workspace_members.invitation_token', '=', token)
    .where('workspace_members.status', '=', 'invited')
    .executeTakeFirst()
}

/** Accepts an invitation: active, joined now, the link spent. False when it was accepted meanwhile. */
export async function activateMember(db: Executor, tenant: Tenant, id: string, token: string, now: string): Promise<boolean> {
  const r = await scoped(db, tenant)
    .updateTable('workspace_members')
    .set({ status: 'active', joined_at: now, invitation_token: null, updated_at: now })
    .where('id', '=', id)
    .where('invitation_token', '=', token)
    .where('status', '=', 'invited')
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

// ---- sessions ----

export async function insertSession(db: Executor, row: MemberSessionsTable): Promise<void> {
  await db.insertInto('member_sessions').values(row).execute()
}

export const findSession = (db: Executor, tokenHash: string): Promise<MemberSessionsTable | undefined> => findSessionQ.first(db, { tokenHash })
const findSessionQ = prepared((db, a: { tokenHash: string }) => db.selectFrom('member_sessions').selectAll().where('token_hash', '=', a.tokenHash))

export const findSessionById = (db: Executor, id: string): Promise<MemberSessionsTable | undefined> => findSessionByIdQ.first(db, { id })
const findSessionByIdQ = prepared((db, a: { id: string }) => db.selectFrom('member_sessions').selectAll().where('id', '=', a.id))

export async function touchSession(db: Executor, id: string, now: string): Promise<void> {
  await db.updateTable('member_sessions').set({ last_seen_at: now }).where('id', '=', id).execute()
}

export async function deleteSession(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('member_sessions').where('id', '=', id).execute()
}

export async function deleteSessionsOf(db: Executor, email: string): Promise<number> {
  const r = await db.deleteFrom('member_sessions').where('email', '=', email).executeTakeFirst()
  return Number(r.numDeletedRows)
}

/** Sessions past their absolute expiry, or idle since `idleBefore`. */
export async function purgeSessions(db: Executor, now: string, idleBefore: string): Promise<number> {
  const r = await db
    .deleteFrom('member_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst()
  return Number(r.numDeletedRows)
}

// ---- failed sign-ins, per bucket in a fixed window ----

export async function failuresOf(db: Executor, bucket: string, windowFrom: string): Promise<{ failures: number; window_start: string } | undefined> {
  return db.selectFrom('sign_in_throttle').select(['failures', 'window_start']).where('bucket', '=', bucket).where('window_start', '>=', windowFrom).executeTakeFirst()
}

/** One more failure; a window older than `windowFrom` restarts at `now` (one atomic upsert on both engines). */
export async function recordFailure(db: Executor, bucket: string, now: string, windowFrom: string): Promise<void> {
  await db
    .insertInto('sign_in_throttle')
    .values({ bucket, window_start: now, failures: 1 })
    .onConflict((oc) =>
      oc.column('bucket').doUpdateSet({
        failures: sql<number>`case when sign_in_throttle.window_start < ${windowFrom} then 1 else sign_in_throttle.failures + 1 end`,
        window_start: sql<string>`case when sign_in_throttle.window_start < ${windowFrom} then ${now} else sign_in_throttle.window_start end`,
      }),
    )
    .execute()
}

export async function clearFailures(db: Executor, bucket: string): Promise<void> {
  await db.deleteFrom('sign_in_throttle').where('bucket', '=', bucket).execute()
}

export async function purgeFailures(db: Executor, windowFrom: string): Promise<number> {
  const r = await db.deleteFrom('sign_in_throttle').where('window_start', '<', windowFrom).executeTakeFirst()
  return Number(r.numDeletedRows)
}
