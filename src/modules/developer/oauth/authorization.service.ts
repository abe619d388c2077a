import type { FastifyRequest } from 'fastify'
import { bindAudit } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson } from '../../../kernel/db/database.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Mode } from '../../../kernel/tenant.js'
import { sha256, type OAuthAppsService } from './oauth-apps.service.js'
import { repeatedParameter, type OAuthErrorCode } from './oauth-errors.js'
import { parseScope, roleMayGrant } from './oauth-scopes.js'
import * as repo from './oauth.repository.js'
import type { OAuthAppsTable, OAuthGrantsTable } from './oauth.tables.js'
import { grantView } from './oauth.views.js'
import { matchRedirectUri } from './redirect-uris.js'

export const CODE_SECONDS = 60
const CODE_PREFIX = 'svc_oac_'
// BASE64URL(SHA-256(verifier)) without padding is 43 characters (RFC 7636 §4.2).
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export type MemberSession = NonNullable<Awaited<ReturnType<Services['signIn']['session']>>>
export type Membership = MemberSession['memberships'][number]

/** A checked authorization request: what the consent page shows and the consent form sends back. */
export interface AuthorizationRequest {
  app: OAuthAppsTable
  redirectUri: string
  scopes: string[]
  state: string | null
  codeChallenge: string | null
}

/**
 * Where a request goes wrong decides how it is told (RFC 6749 §4.1.2.1, RFC 9700 §4.1): until the client
 * and its exact redirect URI are known, an error page (`page`) — never a redirect; after that, a redirect
 * to the client with `error`, `state` and `iss` (RFC 9207, against mix-up).
 */
export type Checked = { ok: true; req: AuthorizationRequest } | { ok: false; page: { status: number; title: string; message: string } } | { ok: false; redirect: string }

export class OAuthAuthorization {
  constructor(
    private readonly k: Kernel,
    private readonly apps: OAuthAppsService,
  ) {}

  get issuer(): string {
    return this.k.config.publicUrl.replace(/\/$/, '')
  }

  /** The client's redirect URI with the response parameters added to its own query. */
  respond(redirectUri: string, params: Record<string, string | null>): string {
    const url = new URL(redirectUri)
    for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.append(k, v)
    url.searchParams.append('iss', this.issuer)
    return url.toString()
  }

  private fail(redirectUri: string, state: string | null, error: OAuthErrorCode, description: string): Checked {
    return { ok: false, redirect: this.respond(redirectUri, { error, error_description: description, state }) }
  }

  async check(params: URLSearchParams): Promise<Checked> {
    const page = (message: string, status = 400): Checked => ({ ok: false, page: { status, title: 'This authorization request is not valid', message } })
    const repeated = repeatedParameter(params)
    if (repeated === 'client_id' || repeated === 'redirect_uri') return page(`${repeated} is given more than once.`)
    const clientId = params.get('client_id')
    if (!clientId) return page('The request has no client_id.')
    const app = await this.apps.byClientId(clientId)
    if (!app) return page('No application has this client_id.')
    const redirectUri = matchRedirectUri(fromJson<string[]>(app.redirect_uris, []), params.get('redirect_uri'))
    if (!redirectUri) return page(`redirect_uri must be exactly one of the URIs registered for ${app.name}.`)
    const state = params.get('state')
    if (repeated) return this.fail(redirectUri, state, 'invalid_request', `${repeated} is given more than once.`)
    const responseType = params.get('response_type')
    if (responseType === null) return this.fail(redirectUri, state, 'invalid_request', 'response_type is required (code).')
    if (responseType !== 'code') return this.fail(redirectUri, state, 'unsupported_response_type', 'Only response_type=code is supported.')
    const scope = parseScope(params.get('scope'), app.allowed_scopes.split(' '))
    if ('problem' in scope) return this.fail(redirectUri, state, 'invalid_scope', scope.problem)
    const challenge = params.get('code_challenge')
    const method = params.get('code_challenge_method')
    if (challenge === null && method !== null) return this.fail(redirectUri, state, 'invalid_request', 'code_challenge_method without a code_challenge.')
    if (challenge !== null) {
      // Without a method RFC 7636 means `plain`, which shows the verifier to whoever sees this URL: refused.
      if (method !== 'S256') return this.fail(redirectUri, state, 'invalid_request', 'code_challenge_method must be S256 (plain is not accepted).')
      if (!S256_CHALLENGE.test(challenge)) return this.fail(redirectUri, state, 'invalid_request', 'code_challenge must be the 43-character BASE64URL SHA-256 of the verifier.')
    } else if (app.type === 'public') {
      return this.fail(redirectUri, state, 'invalid_request', 'Public clients must use PKCE: send code_challenge and code_challenge_method=S256.')
    }
    return { ok: true, req: { app, redirectUri, scopes: scope.scopes, state, codeChallenge: challenge } }
  }

  /** The memberships this app may be authorized for: a sandbox app only ever gets sandbox (test) data. */
  eligible(session: MemberSession, app: OAuthAppsTable): Membership[] {
    return session.memberships.filter((m) => app.mode === 'live' || m.mode === 'test')
  }

  /**
   * The member's consent for the workspace and mode they chose: a grant with its single-use code (60 s,
   * stored hashed), audited and announced to the workspace; returns where to send the browser.
   */
  async consent(request: FastifyRequest, session: MemberSession, req: AuthorizationRequest, choice: string): Promise<{ redirect: string } | { refused: string }> {
    const [workspaceId, mode] = choice.split(':')
    const membership = this.eligible(session, req.app).find((m) => m.workspace_id === workspaceId && m.mode === mode)
    if (!membership) return { refused: 'You can authorize this app only for a workspace you are an active member of.' }
    if (!roleMayGrant(membership.role, req.scopes)) return { refused: 'Only an owner or admin of the workspace may grant the admin scope.' }
    const code = CODE_PREFIX + randomToken(32)
    const now = this.k.clock.now()
    const tenant = { workspaceId, mode: mode as Mode }
    const row: OAuthGrantsTable = {
      id: newId('ogr'),
      workspace_id: workspaceId,
      mode: mode as Mode,
      app_id: req.app.id,
      client_id: req.app.client_id,
      member_id: membership.member_id,
      scopes: req.scopes.join(' '),
      redirect_uri: req.redirectUri,
      code_hash: sha256(code),
      code_challenge: req.codeChallenge,
      code_expires_at: iso(new Date(now.getTime() + CODE_SECONDS * 1000)),
      code_used_at: null,
      created_at: iso(now),
      revoked_at: null,
      revoked_reason: null,
    }
    const scope = {
      actor: { type: 'member' as const, id: membership.member_id },
      action: 'authorizeOAuthApp',
      ip: request.ip,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
      requestId: String(request.id),
      fields: ['client_id', 'scope'],
    }
    await this.k.transaction(bindAudit(tenant, scope), async (tx) => {
      await repo.insertGrant(tx, row)
      const view = grantView(row)
      await this.k.events.emit(tx, tenant, 'oauth_grant.created', view)
      return view
    })
    return { redirect: this.respond(req.redirectUri, { code, state: req.state }) }
  }

  deny(req: AuthorizationRequest): string {
    return this.respond(req.redirectUri, { error: 'access_denied', error_description: 'The member declined the authorization.', state: req.state })
  }
}
