import { defineEvents, eventType, type PayloadsOf } from '../../../kernel/events/events.js'
import { OAuthApp, OAuthGrant, type OAuthAppT, type OAuthGrantT } from './oauth.schemas.js'

const APP: OAuthAppT = {
  id: 'oapp_01JD0000000000000000000000',
  object: 'oauth_app',
  client_id: 'svc_oci_9f8XbQ2kLm4nP7rS1tUv3w',
  name: 'Acme CRM connector',
  type: 'confidential',
  redirect_uris: ['https://crm.example.com/oauth/callback'],
  allowed_scopes: ['read', 'leads:write'],
  client_secret_prefix: 'svc_ocs_Ab3d',
  previous_secret_expires_at: null,
  livemode: true,
  created_at: '2026-12-01T09:00:00.000Z',
  updated_at: '2026-12-01T09:00:00.000Z',
}
const GRANT: OAuthGrantT = {
  id: 'ogr_01JD0000000000000000000000',
  object: 'oauth_grant',
  app_id: APP.id,
  client_id: APP.client_id,
  member_id: 'mem_01JD0000000000000000000000',
  scopes: ['read'],
  created_at: '2026-12-01T09:05:00.000Z',
  revoked_at: null,
  revoked_reason: null,
}

/** The OAuth part's events: app changes in the app's workspace, grants in the granting workspace. */
export const OAUTH_EVENTS = defineEvents(
  'developer',
  { scope: 'read' },
  {
    'oauth_app.created': eventType({ description: 'An OAuth app was registered (never carries the secret).', schema: OAuthApp, example: APP }),
    'oauth_app.updated': eventType({
      description: 'An OAuth app was changed, or its secret rotated.',
      schema: OAuthApp,
      example: { ...APP, client_secret_prefix: 'svc_ocs_Zx9q', previous_secret_expires_at: '2026-12-02T09:00:00.000Z' },
    }),
    'oauth_app.deleted': eventType({
      description: 'An OAuth app was deleted; every authorization of it was revoked (each granting workspace gets `oauth_grant.revoked`).',
      schema: OAuthApp,
      example: APP,
    }),
    'oauth_grant.created': eventType({ description: 'A member of this workspace authorized an OAuth app for these scopes.', schema: OAuthGrant, example: GRANT }),
    'oauth_grant.revoked': eventType({
      description:
        'A grant and every token issued from it were revoked: `revoked_reason` says why (revoked by the app, revoked by the workspace, member removed, member demoted, app deleted, code reused, refresh token replayed).',
      schema: OAuthGrant,
      example: { ...GRANT, revoked_at: '2026-12-01T10:00:00.000Z', revoked_reason: 'refresh token replayed' },
    }),
  },
)

declare module '../../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof OAUTH_EVENTS> {}
}
