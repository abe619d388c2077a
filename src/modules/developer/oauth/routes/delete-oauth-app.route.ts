import { defineRoute } from '../../../../kernel/http/define-route.js'
import { DeletedOAuthApp, IdParams } from '../oauth.schemas.js'

export const deleteOAuthApp = defineRoute({
  operationId: 'deleteOAuthApp',
  method: 'DELETE',
  url: '/oauth/apps/{id}',
  module: 'developer',
  scope: 'admin',
  summary: 'Delete an OAuth app',
  description:
    'Deletes an app of this workspace and mode, named by its id (`oapp_…`) or its `client_id` (another workspace’s or mode’s app is 404). ' +
    'Every authorization of it, in every workspace that gave one, is revoked with all its tokens in the same transaction; its ' +
    '`client_id` is unknown to /oauth/authorize and /oauth/token from then on. Events `oauth_app.deleted` here and ' +
    '`oauth_grant.revoked` in each granting workspace. An extension of the spec (docs/oauth.md).',
  schema: { params: IdParams, response: { 200: DeletedOAuthApp } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.oauth.apps.delete(principal, params.id),
})
