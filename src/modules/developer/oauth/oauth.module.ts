import { defineModule } from '../../../kernel/module.js'
import { oauthAccessReview } from './oauth.access-review.js'
import { OAUTH_EVENTS } from './oauth.events.js'
import { oauthEndpoints } from './oauth.endpoints.js'
import { oauthMigrations } from './oauth.migrations.js'
import { oauthSecurityScheme } from './oauth.openapi.js'
import { OAuthService } from './oauth.service.js'
import { createOAuthApp } from './routes/create-oauth-app.route.js'
import { deleteOAuthApp } from './routes/delete-oauth-app.route.js'
import { listOAuthApps } from './routes/list-oauth-apps.route.js'
import { listOAuthAuthorizations } from './routes/list-oauth-authorizations.route.js'
import { revokeOAuthAuthorization } from './routes/revoke-oauth-authorization.route.js'
import { updateOAuthApp } from './routes/update-oauth-app.route.js'
import { BASES } from '../../../kernel/http/bases.js'

/**
 * The OAuth part of the developer module (merged into `developer` by the lead): OAuth apps and the
 * authorizations a workspace gave (six API operations), the authorization server (/oauth/authorize,
 * /oauth/token, /oauth/revoke, RFC 8414 metadata) and the bearer resolver that lets `svc_oat_` access
 * tokens call the API. docs/oauth.md.
 */
export const oauthModule = defineModule({
  name: 'developer-oauth',
  uses: ['workspaces'],
  migrations: oauthMigrations,
  routes: [listOAuthApps, createOAuthApp, updateOAuthApp, deleteOAuthApp, listOAuthAuthorizations, revokeOAuthAuthorization],
  init(kernel, services) {
    kernel.events.declare(OAUTH_EVENTS)
    services.oauth = new OAuthService(kernel, services)
    // Membership is part of every grant: a member removed or demoted loses theirs in that same transaction.
    services.workspaces.onMemberAccessReduced((tx, tenant, change) => services.oauth.authorizations.memberAccessReduced(tx, tenant, change))
  },
  callbacks: async (app, _kernel, services) => {
    await app.register(oauthEndpoints(services))
    // Also under each base URL, where the spec puts every operation (§4.1); the root ones stay.
    for (const { prefix } of BASES) await app.register(oauthEndpoints(services, { metadata: false }), { prefix })
  },
  bearer: (kernel, services) => ({ ...services.oauth.tokens.bearer(), openapi: oauthSecurityScheme(kernel.config.publicUrl) }),
  maintenance: async (_kernel, services) => {
    await services.oauth.purge()
  },
  accessReview: oauthAccessReview,
})
