import { defineRoute } from '../../../../kernel/http/define-route.js'
import { OAuthAppWithSecret, UpdateOAuthAppBody } from '../oauth.schemas.js'

export const updateOAuthApp = defineRoute({
  operationId: 'updateOAuthApp',
  method: 'PATCH',
  url: '/oauth/apps',
  module: 'developer',
  scope: 'write',
  summary: 'Change an OAuth app, or rotate its secret',
  description:
    'The path has no id: the body names the app by `client_id` (an app of this workspace and mode, else 404). Changes name, redirect_uris or ' +
    'allowed_scopes (narrowing the scopes also narrows what existing grants get at their next refresh). `rotate_secret: true` issues a new ' +
    '`client_secret`, shown once in this answer; the old one keeps working for `secret_grace_hours` (default 24, 0 = at once). The type cannot change.',
  schema: { body: UpdateOAuthAppBody, response: { 200: OAuthAppWithSecret } },
  errors: ['resource_not_found'],
  handler: ({ body, principal, services }) => services.oauth.apps.update(principal, body),
})
