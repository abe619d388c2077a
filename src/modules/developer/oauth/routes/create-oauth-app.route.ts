import { defineRoute } from '../../../../kernel/http/define-route.js'
import { CreateOAuthAppBody, OAuthAppWithSecret } from '../oauth.schemas.js'

export const createOAuthApp = defineRoute({
  operationId: 'createOAuthApp',
  method: 'POST',
  url: '/oauth/apps',
  module: 'developer',
  scope: 'write',
  summary: 'Register an OAuth app',
  description:
    'Registers a partner application for the authorization code flow (docs/oauth.md). `redirect_uris` are matched as exact strings: https, or http ' +
    'only on 127.0.0.1, [::1] or localhost; no wildcards or fragments (422). A `confidential` app (the default) gets its `client_secret` in this ' +
    'answer only — it is stored hashed; a `public` app has none and must use PKCE (S256). An app registered with a sandbox key can be authorized only for sandbox data.',
  schema: { body: CreateOAuthAppBody, response: { 201: OAuthAppWithSecret } },
  handler: ({ body, principal, services }) => services.oauth.apps.create(principal, body),
})
