import type { Executor } from '../../../kernel/db/database.js'
import { prepared } from '../../../kernel/db/prepared.js'
import { scoped } from '../../../kernel/db/scoped.js'
import type { Tenant } from '../../../kernel/tenant.js'
import './oauth.tables.js'
import type { OAuthAppsTable, OAuthGrantsTable, OAuthTokensTable } from './oauth.tables.js'

// The OAuth part's only SQL. Apps are read per tenant for the API; the authorization server finds apps by
// client_id, and grants and tokens by the hash of their secret, across tenants (the secret is the key).

const tenantOf = (row: { workspace_id: string; mode: Tenant['mode'] }): Tenant => ({ workspaceId: row.workspace_id, mode: row.mode })

// ---- apps ----

export async function insertApp(db: Executor, row: OAuthAppsTable): Promise<void> {
  await db.insertInto('oauth_apps').values(row).execute()
}

export function listApps(db: Executor, tenant: Tenant, page: { after: string | null; limit: number }): Promise<OAuthAppsTable[]> {
  let q = scoped(db, tenant)
    .selectFrom('oauth_apps')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
  if (page.after) q = q.where('id', '<', page.after)
  return q.execute()
}

export function findApp(db: Executor, tenant: Tenant, clientId: string): Promise<OAuthAppsTable | undefined> {
  return scoped(db, tenant).selectFrom('oauth_apps').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

/** By client_id in any workspace: the authorization server's lookup (client_id is the app's public name). */
export const findAppByClientId = (db: Executor, clientId: string): Promise<OAuthAppsTable | undefined> => appByClientQ.first(db, { clientId })
const appByClientQ = prepared((db, a: { clientId: string }) => db.selectFrom('oauth_apps').selectAll().where('client_id', '=', a.clientId))

export async function updateApp(db: Executor, row: OAuthAppsTable, patch: Partial<OAuthAppsTable>): Promise<void> {
  await scoped(db, tenantOf(row)).updateTable('oauth_apps').set(patch).where('id', '=', row.id).execute()
}

/** By its id or its client_id, in this tenant only (deleteOAuthApp accepts either). */
export function findAppByIdOrClientId(db: Executor, tenant: Tenant, ref: string): Promise<OAuthAppsTable | undefined> {
  return scoped(db, tenant)
    .selectFrom('oauth_apps')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', ref), eb('client_id', '=', ref)]))
    .executeTakeFirst()
}

export async function deleteApp(db: Executor, row: OAuthAppsTable): Promise<void> {
  await scoped(db, tenantOf(row)).deleteFrom('oauth_apps').where('id', '=', row.id).execute()
}

// ---- grants (consent + its single-use code) ----

/** Every app a tenant owns (an access review lists them all). */
export function allApps(db: Executor, tenant: Tenant): Promise<OAuthAppsTable[]> {
  return scoped(db, tenant).selectFrom('oauth_apps').selectAll().orderBy('id').execute()
}

export interface GrantAccess {
  id: string
  client_id: string
  app_name: string | null
  member_id: string
  scopes: string
  created_at: string
  revoked_at: string | null
  /** The latest expiry of a token of the grant still usable at `now` (null: none is). */
  live_until: string | null
}

/** The consents given in a tenant (codes exchanged for tokens), newest first, with their app, whichever workspace owns it. */
export function grantsWithAccess(db: Executor, tenant: Tenant, now: string): Promise<GrantAccess[]> {
  return grantsListed(db, tenant, now).orderBy('oauth_grants.created_at', 'desc').orderBy('oauth_grants.id', 'desc').execute()
}

export interface GrantListed extends OAuthGrantsTable {
  app_name: string | null
  /** The latest expiry of a token of the grant still usable at `now` (null: none is). */
  live_until: string | null
}

/** The consents given in a tenant (codes exchanged), with their app's name and how long a token of each still works. */
function grantsListed(db: Executor, tenant: Tenant, now: string) {
  return scoped(db, tenant)
    .selectFrom('oauth_grants')
    .leftJoin('oauth_apps', 'oauth_apps.id', 'oauth_grants.app_id')
    .selectAll('oauth_grants')
    .select((eb) => [
      'oauth_apps.name as app_name',
      eb
        .selectFrom('oauth_tokens')
        .select((t) => t.fn.max('oauth_tokens.expires_at').as('until'))
        .whereRef('oauth_tokens.grant_id', '=', 'oauth_grants.id')
        .where('oauth_tokens.revoked_at', 'is', null)
        .where('oauth_tokens.rotated_at', 'is', null)
        .where('oauth_tokens.expires_at', '>', now)
        .as('live_until'),
    ])
    .where('oauth_grants.code_used_at', 'is not', null)
}

/** listOAuthAuthorizations: newest first, a page at a time. */
export function listGrants(db: Executor, tenant: Tenant, now: string, page: { after: string | null; limit: number }): Promise<GrantListed[]> {
  let q = grantsListed(db, tenant, now)
    .orderBy('oauth_grants.id', 'desc')
    .limit(page.limit + 1)
  if (page.after) q = q.where('oauth_grants.id', '<', page.after)
  return q.execute() as Promise<GrantListed[]>
}

export function findGrantListed(db: Executor, tenant: Tenant, now: string, id: string): Promise<GrantListed | undefined> {
  return grantsListed(db, tenant, now).where('oauth_grants.id', '=', id).executeTakeFirst() as Promise<GrantListed | undefined>
}

/** A member's grants not yet revoked (their codes spent or not: a pending code must not redeem either). */
export function liveGrantsOfMember(db: Executor, tenant: Tenant, memberId: string): Promise<OAuthGrantsTable[]> {
  return scoped(db, tenant).selectFrom('oauth_grants').selectAll().where('member_id', '=', memberId).where('revoked_at', 'is', null).execute()
}

/** An app's grants not yet revoked, in every workspace that authorized it (the app is deleted). */
export function liveGrantsOfApp(db: Executor, appId: string): Promise<OAuthGrantsTable[]> {
  return db.selectFrom('oauth_grants').selectAll().where('app_id', '=', appId).where('revoked_at', 'is', null).execute()
}

export async function insertGrant(db: Executor, row: OAuthGrantsTable): Promise<void> {
  await db.insertInto('oauth_grants').values(row).execute()
}

export const findGrantByCode = (db: Executor, codeHash: string): Promise<OAuthGrantsTable | undefined> => db.selectFrom('oauth_grants').selectAll().where('code_hash', '=', codeHash).executeTakeFirst()

export const findGrant = (db: Executor, tenant: Tenant, id: string): Promise<OAuthGrantsTable | undefined> =>
  scoped(db, tenant).selectFrom('oauth_grants').selectAll().where('id', '=', id).executeTakeFirst()

/** Spends the code; false when it was spent already (a concurrent redemption won) or the grant revoked meanwhile. */
export async function spendCode(db: Executor, grant: OAuthGrantsTable, now: string): Promise<boolean> {
  const r = await scoped(db, tenantOf(grant))
    .updateTable('oauth_grants')
    .set({ code_used_at: now })
    .where('id', '=', grant.id)
    .where('code_used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

/** Revokes the grant and every token of its family; false when it was revoked already. */
export async function revokeGrant(db: Executor, grant: OAuthGrantsTable, now: string, reason: string): Promise<boolean> {
  const tenant = tenantOf(grant)
  await scoped(db, tenant).updateTable('oauth_tokens').set({ revoked_at: now }).where('grant_id', '=', grant.id).where('revoked_at', 'is', null).execute()
  const r = await scoped(db, tenant).updateTable('oauth_grants').set({ revoked_at: now, revoked_reason: reason }).where('id', '=', grant.id).where('revoked_at', 'is', null).executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

// ---- tokens ----

export async function insertTokens(db: Executor, rows: OAuthTokensTable[]): Promise<void> {
  await db.insertInto('oauth_tokens').values(rows).execute()
}

/** Every request with an OAuth token runs this (the bearer resolver): built and compiled once. */
export const findToken = (db: Executor, tokenHash: string): Promise<OAuthTokensTable | undefined> => tokenQ.first(db, { tokenHash })
const tokenQ = prepared((db, a: { tokenHash: string }) => db.selectFrom('oauth_tokens').selectAll().where('token_hash', '=', a.tokenHash))

/** The bearer resolver's lookup: the token with its grant's member and revocation (one query, every request). */
export const findAccessToken = (db: Executor, tokenHash: string): Promise<(OAuthTokensTable & { member_id: string; grant_revoked_at: string | null }) | undefined> => accessQ.first(db, { tokenHash })
const accessQ = prepared((db, a: { tokenHash: string }) =>
  db
    .selectFrom('oauth_tokens')
    .innerJoin('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .selectAll('oauth_tokens')
    .select(['oauth_grants.member_id', 'oauth_grants.revoked_at as grant_revoked_at'])
    .where('oauth_tokens.token_hash', '=', a.tokenHash),
)

/** Marks a refresh token used; false when it was used or revoked meanwhile. */
export async function rotateToken(db: Executor, token: OAuthTokensTable, now: string): Promise<boolean> {
  const r = await scoped(db, tenantOf(token))
    .updateTable('oauth_tokens')
    .set({ rotated_at: now })
    .where('id', '=', token.id)
    .where('rotated_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(r.numUpdatedRows) === 1
}

export async function revokeToken(db: Executor, token: OAuthTokensTable, now: string): Promise<void> {
  await scoped(db, tenantOf(token)).updateTable('oauth_tokens').set({ revoked_at: now }).where('id', '=', token.id).where('revoked_at', 'is', null).execute()
}

/**
 * Housekeeping: tokens expired before `before` (a rotated refresh token is kept until its own expiry, so
 * its replay is still recognised), then grants left without tokens whose code expired before `before`.
 */
export async function purge(db: Executor, before: string): Promise<number> {
  const tokens = await db.deleteFrom('oauth_tokens').where('expires_at', '<', before).executeTakeFirst()
  const grants = await db
    .deleteFrom('oauth_grants')
    .where('code_expires_at', '<', before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('oauth_tokens').select('oauth_tokens.id').whereRef('oauth_tokens.grant_id', '=', 'oauth_grants.id'))))
    .executeTakeFirst()
  return Number(tokens.numDeletedRows) + Number(grants.numDeletedRows)
}
