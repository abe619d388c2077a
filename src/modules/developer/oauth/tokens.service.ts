import { createHash } from 'node:crypto'
import { inheritAudit } from '../../../kernel/audit/audit.js'
import type { BearerResolver } from '../../../kernel/auth/bearer-tokens.js'
import { iso } from '../../../kernel/clock.js'
import type { Executor } from '../../../kernel/db/database.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Principal, Tenant } from '../../../kernel/tenant.js'
import { sha256 } from './oauth-apps.service.js'
import { revokeGrantIn } from './grant-revocation.js'
import { OAuthError } from './oauth-errors.js'
import { roleMayGrant } from './oauth-scopes.js'
import * as repo from './oauth.repository.js'
import type { OAuthAppsTable, OAuthGrantsTable, OAuthTokensTable } from './oauth.tables.js'
import { grantView, scopeList } from './oauth.views.js'

/** Lifetimes (docs/oauth.md "Lifetimes"). */
export const ACCESS_TOKEN_SECONDS = 3600
export const REFRESH_TOKEN_SECONDS = 30 * 86400
export const ACCESS_PREFIX = 'svc_oat_'
export const REFRESH_PREFIX = 'svc_ort_'
const TOKEN_SHAPE = /^svc_o(at|rt)_[A-Za-z0-9_-]{43}$/
// RFC 7636 §4.1: 43–128 unreserved characters.
const VERIFIER_SHAPE = /^[A-Za-z0-9._~-]{43,128}$/

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
  /** Which workspace and base URL the token works on (extensions; RFC 6749 §5.1 allows more fields). */
  workspace_id: string
  livemode: boolean
}

const tenantOf = (row: { workspace_id: string; mode: Tenant['mode'] }): Tenant => ({ workspaceId: row.workspace_id, mode: row.mode })
const s256 = (verifier: string): string => createHash('sha256').update(verifier, 'ascii').digest('base64url')
const invalidGrant = (why: string) => new OAuthError('invalid_grant', why)

/**
 * The token endpoint's grants, revocation and the bearer resolver. Each grant (one consent) is a family:
 * its code redeems once; a second redemption, or the replay of a refresh token already exchanged, revokes
 * the grant and every token it issued (RFC 9700 §2.2.2, §4.14). Refresh tokens rotate at every use.
 */
export class OAuthTokens {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  private now(): Date {
    return this.k.clock.now()
  }

  /** authorization_code: the code, the same redirect_uri, and the PKCE verifier when a challenge was sent. */
  async exchangeCode(app: OAuthAppsTable, form: URLSearchParams): Promise<TokenResponse> {
    const code = form.get('code')
    if (!code) throw new OAuthError('invalid_request', 'code is required.')
    const grant = await repo.findGrantByCode(this.k.db, sha256(code))
    if (!grant || grant.client_id !== app.client_id) throw invalidGrant('The authorization code is unknown or was issued to another client.')
    if (grant.code_used_at) {
      await this.revokeFamily(grant, 'authorization code reused', app)
      throw invalidGrant('The authorization code was already used; every token issued from it is now revoked.')
    }
    if (grant.revoked_at) throw invalidGrant('The authorization was revoked.')
    if (Date.parse(grant.code_expires_at) <= this.now().getTime()) throw invalidGrant('The authorization code has expired (codes live 60 seconds).')
    if (form.get('redirect_uri') !== grant.redirect_uri) throw invalidGrant('redirect_uri must be exactly the one of the authorization request.')
    const verifier = form.get('code_verifier')
    if (grant.code_challenge) {
      if (!verifier || !VERIFIER_SHAPE.test(verifier) || s256(verifier) !== grant.code_challenge) throw invalidGrant('The PKCE code_verifier does not match the code_challenge.')
    } else if (verifier !== null) {
      // RFC 9700 §2.1.1: a verifier for a code issued without a challenge is a PKCE downgrade attempt.
      throw invalidGrant('This code was issued without a code_challenge; a code_verifier is not accepted.')
    }
    const issued = await this.k.transaction(inheritAudit(app, tenantOf(grant)), async (tx) => {
      if (!(await repo.spendCode(tx, grant, iso(this.now())))) return null
      return this.issue(tx, grant, scopeList(grant.scopes), scopeList(grant.scopes))
    })
    if (!issued) {
      // Another redemption of the same code won the race: treat this one as the reuse it is.
      await this.revokeFamily(grant, 'authorization code reused', app)
      throw invalidGrant('The authorization code was already used; every token issued from it is now revoked.')
    }
    return issued
  }

  /** refresh_token: rotates the refresh token; a narrower `scope` narrows the access token only (RFC 6749 §6). */
  async refresh(app: OAuthAppsTable, form: URLSearchParams): Promise<TokenResponse> {
    const presented = form.get('refresh_token')
    if (!presented) throw new OAuthError('invalid_request', 'refresh_token is required.')
    const token = TOKEN_SHAPE.test(presented) ? await repo.findToken(this.k.db, sha256(presented)) : undefined
    if (!token || token.kind !== 'refresh' || token.client_id !== app.client_id) throw invalidGrant('The refresh token is unknown or was issued to another client.')
    const grant = await repo.findGrant(this.k.db, tenantOf(token), token.grant_id)
    if (!grant || grant.revoked_at || token.revoked_at) throw invalidGrant('The refresh token was revoked.')
    if (token.rotated_at) {
      await this.revokeFamily(grant, 'refresh token replayed', app)
      throw invalidGrant('The refresh token was already used; the whole authorization is now revoked.')
    }
    if (Date.parse(token.expires_at) <= this.now().getTime()) throw invalidGrant('The refresh token has expired; authorize again.')
    const held = scopeList(token.scopes)
    let scopes = held
    const asked = form.get('scope')
    if (asked !== null) {
      scopes = [...new Set(asked.split(' ').filter(Boolean))]
      if (scopes.length === 0 || scopes.some((s) => !held.includes(s))) throw new OAuthError('invalid_scope', `scope may only narrow what was granted: ${held.join(' ')}.`)
    }
    // What the app may still ask for, and the member's membership, are checked again at every refresh.
    const allowed = scopeList(app.allowed_scopes)
    scopes = scopes.filter((s) => allowed.includes(s))
    if (scopes.length === 0) throw invalidGrant('The app may no longer ask for the granted scopes; authorize again.')
    const member = await this.services.workspaces.getMember(tenantOf(grant), grant.member_id)
    if (!member || member.status !== 'active') {
      await this.revokeFamily(grant, 'member left the workspace', app)
      throw invalidGrant('The member who granted access is no longer in the workspace.')
    }
    const issued = await this.k.transaction(inheritAudit(app, tenantOf(grant)), async (tx) => {
      if (!(await repo.rotateToken(tx, token, iso(this.now())))) return null
      return this.issue(tx, grant, scopes, held)
    })
    if (!issued) {
      await this.revokeFamily(grant, 'refresh token replayed', app)
      throw invalidGrant('The refresh token was already used; the whole authorization is now revoked.')
    }
    return issued
  }

  /**
   * RFC 7009: a refresh token revokes its whole grant, an access token only itself. An unknown token,
   * or one of another client, is answered like a success (nothing to say to a caller about it).
   */
  async revoke(app: OAuthAppsTable, form: URLSearchParams): Promise<void> {
    const presented = form.get('token')
    if (!presented) throw new OAuthError('invalid_request', 'token is required.')
    const token = TOKEN_SHAPE.test(presented) ? await repo.findToken(this.k.db, sha256(presented)) : undefined
    if (!token || token.client_id !== app.client_id) return
    if (token.kind === 'access') {
      await repo.revokeToken(this.k.db, token, iso(this.now()))
      return
    }
    const grant = await repo.findGrant(this.k.db, tenantOf(token), token.grant_id)
    if (grant) await this.revokeFamily(grant, 'revoked by the app', app)
  }

  private async issue(tx: Executor, grant: OAuthGrantsTable, accessScopes: string[], refreshScopes: string[]): Promise<TokenResponse> {
    const now = this.now()
    const access = ACCESS_PREFIX + randomToken(32)
    const refresh = REFRESH_PREFIX + randomToken(32)
    const row = (kind: OAuthTokensTable['kind'], token: string, scopes: string[], seconds: number): OAuthTokensTable => ({
      id: newId('otok'),
      token_hash: sha256(token),
      kind,
      grant_id: grant.id,
      workspace_id: grant.workspace_id,
      mode: grant.mode,
      app_id: grant.app_id,
      client_id: grant.client_id,
      scopes: scopes.join(' '),
      created_at: iso(now),
      expires_at: iso(new Date(now.getTime() + seconds * 1000)),
      rotated_at: null,
      revoked_at: null,
    })
    await repo.insertTokens(tx, [row('access', access, accessScopes, ACCESS_TOKEN_SECONDS), row('refresh', refresh, refreshScopes, REFRESH_TOKEN_SECONDS)])
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refresh,
      scope: accessScopes.join(' '),
      workspace_id: grant.workspace_id,
      livemode: grant.mode === 'live',
    }
  }

  /** Revokes a grant and its whole token family, once: the granting workspace gets `oauth_grant.revoked`; audited as `by`'s (the app's request). */
  async revokeFamily(grant: OAuthGrantsTable, reason: string, by: object | null): Promise<void> {
    await this.k.transaction(inheritAudit(by, tenantOf(grant)), async (tx) => ((await revokeGrantIn(this.k, tx, grant, reason)) ? grantView(grant) : null))
  }

  /** How the kernel authenticates `Authorization: Bearer svc_oat_…` (access tokens only; a refresh token is refused). */
  bearer(): BearerResolver {
    return {
      name: 'OAuth access token',
      claims: (token) => token.startsWith(ACCESS_PREFIX) || token.startsWith(REFRESH_PREFIX),
      resolve: async (token): Promise<Principal | null> => {
        if (!token.startsWith(ACCESS_PREFIX) || !TOKEN_SHAPE.test(token)) return null
        const row = await repo.findAccessToken(this.k.db, sha256(token))
        if (!row || row.kind !== 'access' || row.revoked_at || row.grant_revoked_at || Date.parse(row.expires_at) <= this.now().getTime()) return null
        // Membership is part of the grant: removing or demoting the member revokes it in the same transaction
        // (workspaces' onMemberAccessReduced); checking the member here too keeps it so for any other way out.
        const member = await this.services.workspaces.getMember(tenantOf(row), row.member_id)
        if (!member || member.status !== 'active' || !roleMayGrant(member.role, scopeList(row.scopes))) return null
        // The member's role now: each operation's minRole binds the app as it binds the member (kernel/auth/roles.ts).
        return { keyId: row.grant_id, workspaceId: row.workspace_id, mode: row.mode, scopes: scopeList(row.scopes), actor: { type: 'oauth_app', id: row.app_id }, role: member.role }
      },
    }
  }

  purge(): Promise<number> {
    // A day past expiry: an expired token's replay is answered "expired" meanwhile, not "unknown".
    return repo.purge(this.k.db, iso(new Date(this.now().getTime() - 86400_000)))
  }
}
