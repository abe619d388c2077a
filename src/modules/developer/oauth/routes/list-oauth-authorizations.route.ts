import { Type } from 'typebox'
import { defineRoute } from '../../../../kernel/http/define-route.js'
import { Page, PageQuery } from '../../../../kernel/http/pagination.js'
import { OAuthAuthorization } from '../oauth.schemas.js'

export const listOAuthAuthorizations = defineRoute({
  operationId: 'listOAuthAuthorizations',
  method: 'GET',
  url: '/oauth/authorizations',
  module: 'developer',
  scope: 'admin',
  summary: 'List the OAuth authorizations given in this workspace, newest first',
  description:
    'Every app a member of this workspace authorized in this mode (live or sandbox), whichever workspace owns the app: who consented, ' +
    'to which scopes, and whether it is `active`, `expired` or `revoked` (with the reason). A member removed or demoted loses every ' +
    'authorization they gave (revoked at once). An extension of the spec (docs/oauth.md "Authorizations in a workspace").',
  schema: { querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), response: { 200: Page(OAuthAuthorization, 'OAuthAuthorization') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.oauth.authorizations.list(principal, query),
})
