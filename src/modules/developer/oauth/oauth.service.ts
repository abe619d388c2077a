import { iso } from '../../../kernel/clock.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { Services } from '../../../kernel/services.js'
import { OAuthAuthorization } from './authorization.service.js'
import { OAuthAuthorizations } from './authorizations.service.js'
import { presentedClient } from './client-auth.js'
import { OAuthAppsService } from './oauth-apps.service.js'
import { OAuthError } from './oauth-errors.js'
import * as repo from './oauth.repository.js'
import type { OAuthAppsTable } from './oauth.tables.js'
import { OAuthTokens } from './tokens.service.js'

/** services.oauth: OAuth apps (API operations), the authorization server's steps, tokens, the authorizations a workspace gave. */
export class OAuthService {
  readonly apps: OAuthAppsService
  readonly authorization: OAuthAuthorization
  readonly tokens: OAuthTokens
  readonly authorizations: OAuthAuthorizations

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.apps = new OAuthAppsService(k)
    this.authorization = new OAuthAuthorization(k, this.apps)
    this.tokens = new OAuthTokens(k, services)
    this.authorizations = new OAuthAuthorizations(k)
  }

  /**
   * The client of a token or revocation request: a confidential app by its current secret (or the
   * previous one within the rotation grace), a public app by its client_id alone — and never with a
   * secret, which a public app does not have. Anything else is invalid_client (401).
   */
  async authenticateClient(authorization: string | undefined, form: URLSearchParams): Promise<OAuthAppsTable> {
    const presented = presentedClient(authorization, form)
    const app = await this.apps.byClientId(presented.clientId)
    if (!app) throw new OAuthError('invalid_client', 'Unknown client.')
    if (app.type === 'confidential') {
      if (presented.secret === null) throw new OAuthError('invalid_client', 'This client is confidential: authenticate with its client secret.')
      if (!this.apps.secretMatches(app, presented.secret)) throw new OAuthError('invalid_client', 'The client secret is wrong.')
    } else if (presented.secret !== null) {
      throw new OAuthError('invalid_client', 'A public client has no secret; send client_id and the PKCE code_verifier.')
    }
    return app
  }

  /**
   * Who holds OAuth access for an access review: the apps the tenant owns, and every consent given in it
   * (by which member, to which app, with which scopes), live while a token of it is usable.
   */
  async accessReview(tenant: Tenant): Promise<{ apps: OAuthAppsTable[]; grants: repo.GrantAccess[] }> {
    const [apps, grants] = await Promise.all([repo.allApps(this.k.db, tenant), repo.grantsWithAccess(this.k.db, tenant, iso(this.k.clock.now()))])
    return { apps, grants }
  }

  purge(): Promise<number> {
    return this.tokens.purge()
  }
}

declare module '../../../kernel/services.js' {
  interface Services {
    oauth: OAuthService
  }
}
