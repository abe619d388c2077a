import { createHash, timingSafeEqual } from 'node:crypto'
import { iso } from '../../../kernel/clock.js'
import { toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import type { PageResult } from '../../../kernel/http/pagination.js'
import { newId, randomToken } from '../../../kernel/ids.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Principal } from '../../../kernel/tenant.js'
import * as repo from './oauth.repository.js'
import { revokeGrantIn } from './grant-revocation.js'
import type { CreateOAuthAppBodyT, DeletedOAuthAppT, OAuthAppT, OAuthAppWithSecretT, UpdateOAuthAppBodyT } from './oauth.schemas.js'
import type { OAuthAppsTable } from './oauth.tables.js'
import { appView } from './oauth.views.js'
import { redirectUriProblem } from './redirect-uris.js'

export const CLIENT_ID_PREFIX = 'svc_oci_'
export const CLIENT_SECRET_PREFIX = 'svc_ocs_'
const DEFAULT_GRACE_HOURS = 24
/** 256 random bits: a SHA-256 is enough at rest (no slow KDF needed), like API keys. */
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex')

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))
}

function checkRedirectUris(uris: string[] | undefined): void {
  const errors = (uris ?? []).flatMap((u, i) => {
    const problem = redirectUriProblem(u)
    return problem ? [{ pointer: `/body/redirect_uris/${i}`, detail: problem }] : []
  })
  if (errors.length) throw new AppError('validation_failed', `redirect_uris: ${errors[0].detail}.`, { errors })
}

/** OAuth apps: createOAuthApp, listOAuthApps, updateOAuthApp, and client authentication for the token endpoint. */
export class OAuthAppsService {
  constructor(private readonly k: Kernel) {}

  private newSecret(): { secret: string; hash: string; prefix: string } {
    const secret = CLIENT_SECRET_PREFIX + randomToken(32)
    return { secret, hash: sha256(secret), prefix: secret.slice(0, CLIENT_SECRET_PREFIX.length + 4) }
  }

  async create(principal: Principal, body: CreateOAuthAppBodyT): Promise<OAuthAppWithSecretT> {
    checkRedirectUris(body.redirect_uris)
    const type = body.type ?? 'confidential'
    const secret = type === 'confidential' ? this.newSecret() : null
    const now = iso(this.k.clock.now())
    const row: OAuthAppsTable = {
      id: newId('oapp'),
      workspace_id: principal.workspaceId,
      mode: principal.mode,
      client_id: CLIENT_ID_PREFIX + randomToken(16),
      name: body.name,
      type,
      redirect_uris: toJson(body.redirect_uris),
      allowed_scopes: body.allowed_scopes.join(' '),
      secret_hash: secret?.hash ?? null,
      secret_prefix: secret?.prefix ?? null,
      previous_secret_hash: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    }
    return this.k.transaction(principal, async (tx) => {
      await repo.insertApp(tx, row)
      const view = appView(row)
      await this.k.events.emit(tx, principal, 'oauth_app.created', view)
      return { ...view, client_secret: secret?.secret ?? null }
    })
  }

  list(principal: Principal, query: { cursor?: string; limit?: number }): Promise<PageResult<OAuthAppT>> {
    return this.k.paginate({
      list: 'listOAuthApps',
      tenant: principal,
      query,
      fetch: (page) => repo.listApps(this.k.db, principal, page),
      key: (r) => r.id,
      view: appView,
    })
  }

  /** PATCH /oauth/apps: the body's client_id names the app (of this workspace and mode, else 404). */
  async update(principal: Principal, body: UpdateOAuthAppBodyT): Promise<OAuthAppWithSecretT> {
    checkRedirectUris(body.redirect_uris)
    return this.k.transaction(principal, async (tx) => {
      const row = await repo.findApp(tx, principal, body.client_id)
      if (!row) throw new AppError('resource_not_found', `No OAuth app with client_id '${body.client_id}' exists in this workspace.`)
      const now = this.k.clock.now()
      const patch: Partial<OAuthAppsTable> = { updated_at: iso(now) }
      if (body.name !== undefined) patch.name = body.name
      if (body.redirect_uris !== undefined) patch.redirect_uris = toJson(body.redirect_uris)
      if (body.allowed_scopes !== undefined) patch.allowed_scopes = body.allowed_scopes.join(' ')
      let secret: string | null = null
      if (body.rotate_secret) {
        if (row.type !== 'confidential') {
          throw new AppError('validation_failed', 'A public app has no client secret to rotate.', { errors: [{ pointer: '/body/rotate_secret', detail: 'public apps have no secret' }] })
        }
        const next = this.newSecret()
        const grace = body.secret_grace_hours ?? DEFAULT_GRACE_HOURS
        secret = next.secret
        Object.assign(patch, {
          secret_hash: next.hash,
          secret_prefix: next.prefix,
          // One previous secret at a time: a second rotation within the grace replaces it.
          previous_secret_hash: grace > 0 ? row.secret_hash : null,
          previous_secret_expires_at: grace > 0 ? iso(new Date(now.getTime() + grace * 3600_000)) : null,
        })
      } else if (body.secret_grace_hours !== undefined) {
        throw new AppError('validation_failed', 'secret_grace_hours goes with rotate_secret: true.', { errors: [{ pointer: '/body/secret_grace_hours', detail: 'needs rotate_secret' }] })
      }
      await repo.updateApp(tx, row, patch)
      const view = appView({ ...row, ...patch })
      await this.k.events.emit(tx, principal, 'oauth_app.updated', view)
      return { ...view, client_secret: secret }
    })
  }

  /**
   * deleteOAuthApp: the app of this workspace and mode named by its id or client_id (else 404). Every
   * authorization of it, in whichever workspace gave it, is revoked with its tokens in the same
   * transaction (each granting workspace gets `oauth_grant.revoked`), then the app is gone: its client_id
   * is unknown at the token endpoint and the authorization page from then on.
   */
  async delete(principal: Principal, ref: string): Promise<DeletedOAuthAppT> {
    return this.k.transaction(principal, async (tx) => {
      const row = await repo.findAppByIdOrClientId(tx, principal, ref)
      if (!row) throw new AppError('resource_not_found', `No OAuth app '${ref}' exists in this workspace.`)
      let revoked = 0
      for (const grant of await repo.liveGrantsOfApp(tx, row.id)) if (await revokeGrantIn(this.k, tx, grant, 'app deleted')) revoked++
      await repo.deleteApp(tx, row)
      await this.k.events.emit(tx, principal, 'oauth_app.deleted', appView(row))
      return { id: row.id, object: 'oauth_app' as const, client_id: row.client_id, deleted: true as const, revoked_authorizations: revoked }
    })
  }

  /** The app behind a client_id, in whatever workspace registered it. */
  byClientId(clientId: string): Promise<OAuthAppsTable | undefined> {
    return clientId.startsWith(CLIENT_ID_PREFIX) && clientId.length <= 100 ? repo.findAppByClientId(this.k.db, clientId) : Promise.resolve(undefined)
  }

  /** Whether `secret` is the app's current secret, or its previous one within the rotation grace. */
  secretMatches(app: OAuthAppsTable, secret: string): boolean {
    if (!app.secret_hash) return false
    const hash = sha256(secret)
    if (sameHash(hash, app.secret_hash)) return true
    const graceOk = app.previous_secret_hash && app.previous_secret_expires_at && Date.parse(app.previous_secret_expires_at) > this.k.clock.now().getTime()
    return !!graceOk && sameHash(hash, app.previous_secret_hash!)
  }
}
