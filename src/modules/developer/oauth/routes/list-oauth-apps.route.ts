import { Type } from 'typebox'
import { defineRoute } from '../../../../kernel/http/define-route.js'
import { Page, PageQuery } from '../../../../kernel/http/pagination.js'
import { OAuthApp } from '../oauth.schemas.js'

export const listOAuthApps = defineRoute({
  operationId: 'listOAuthApps',
  method: 'GET',
  url: '/oauth/apps',
  module: 'developer',
  scope: 'read',
  summary: 'List the OAuth apps of this workspace, newest first',
  description: 'The apps registered by this workspace in this mode (live or sandbox). Secrets are never shown: `client_secret_prefix` identifies the current one.',
  schema: { querystring: Type.Object({ ...PageQuery }, { additionalProperties: false }), response: { 200: Page(OAuthApp, 'OAuthApp') } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.oauth.apps.list(principal, query),
})
