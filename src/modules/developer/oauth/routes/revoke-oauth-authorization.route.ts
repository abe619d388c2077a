import { defineRoute } from '../../../../kernel/http/define-route.js'
import { IdParams, OAuthAuthorization } from '../oauth.schemas.js'

export const revokeOAuthAuthorization = defineRoute({
  operationId: 'revokeOAuthAuthorization',
  method: 'POST',
  url: '/oauth/authorizations/{id}/revoke',
  module: 'developer',
  scope: 'admin',
  summary: 'Revoke an OAuth authorization',
  description:
    'The authorization (`ogr_…`, given in this workspace and mode, else 404) and every access and refresh token issued from it stop ' +
    'working at once, on every node; the app must ask a member again. The workspace gets `oauth_grant.revoked`. Revoking a revoked ' +
    'authorization changes nothing and answers it. An extension of the spec (docs/oauth.md).',
  schema: { params: IdParams, response: { 200: OAuthAuthorization } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.oauth.authorizations.revoke(principal, params.id),
})
