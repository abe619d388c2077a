import { Type, type Static } from 'typebox'
import { SCOPES } from '../../../kernel/auth/scopes.js'
import { Nullable } from '../../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
const ScopeName = SCOPES.unionSchema({ title: 'OAuthScope', description: '`read`, `write`, `admin` (everything: see docs/oauth.md) or a granular scope.' })
const RedirectUri = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'An exact redirect URI: https, or http only on 127.0.0.1, [::1] or localhost; no wildcard, no fragment.',
})
const AppType = Type.Union([Type.Literal('confidential'), Type.Literal('public')], {
  title: 'OAuthAppType',
  description: '`confidential`: a server that keeps a client secret. `public`: a browser or native app without one (PKCE S256 required).',
})

export const OAuthApp = Type.Object(
  {
    id: Type.String({ examples: ['oapp_01JD0000000000000000000000'] }),
    object: Type.Literal('oauth_app'),
    client_id: Type.String({ description: 'The public identifier the app sends to /oauth/authorize and /oauth/token.', examples: ['svc_oci_9f8XbQ2kLm4nP7rS1tUv3w'] }),
    name: Type.String({ description: 'Shown to members on the consent page.' }),
    type: AppType,
    redirect_uris: Type.Array(Type.String()),
    allowed_scopes: Type.Array(Type.String()),
    client_secret_prefix: Nullable(Type.String({ description: 'The first characters of the current secret, to recognise it; null for public apps.' })),
    previous_secret_expires_at: Nullable(Type.String({ format: 'date-time', description: 'Until when the secret before the last rotation is still accepted.' })),
    livemode: Type.Boolean({ description: 'false: a sandbox app, which can be authorized only for sandbox (test) data.' }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'OAuthApp' },
)
export type OAuthAppT = Static<typeof OAuthApp>

export const OAuthAppWithSecret = Type.Object(
  {
    ...OAuthApp.properties,
    client_secret: Nullable(
      Type.String({ description: 'The client secret (svc_ocs_…): only in the answer that creates or rotates it, stored hashed, never shown again. null otherwise and for public apps.' }),
    ),
  },
  { $id: 'OAuthAppWithSecret' },
)
export type OAuthAppWithSecretT = Static<typeof OAuthAppWithSecret>

export const CreateOAuthAppBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100 }),
    type: Type.Optional(AppType),
    redirect_uris: Type.Array(RedirectUri, { minItems: 1, maxItems: 10, uniqueItems: true }),
    allowed_scopes: SCOPES.listSchema(ScopeName, { minItems: 1, uniqueItems: true }),
  },
  { additionalProperties: false, title: 'CreateOAuthAppBody' },
)
export type CreateOAuthAppBodyT = Static<typeof CreateOAuthAppBody>

export const UpdateOAuthAppBody = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 100, description: 'Names the app to change (the path has no id).' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    redirect_uris: Type.Optional(Type.Array(RedirectUri, { minItems: 1, maxItems: 10, uniqueItems: true })),
    allowed_scopes: Type.Optional(SCOPES.listSchema(ScopeName, { minItems: 1, uniqueItems: true })),
    rotate_secret: Type.Optional(Type.Boolean({ description: 'Issue a new client secret (confidential apps), returned once in `client_secret`.' })),
    secret_grace_hours: Type.Optional(Type.Integer({ minimum: 0, maximum: 168, description: 'With rotate_secret: how long the old secret stays valid (0: at once). Default 24.' })),
  },
  { additionalProperties: false, title: 'UpdateOAuthAppBody' },
)
export type UpdateOAuthAppBodyT = Static<typeof UpdateOAuthAppBody>

/** A member's consent (events `oauth_grant.created` / `oauth_grant.revoked`, in the granting workspace). */
export const OAuthGrant = Type.Object(
  {
    id: Type.String({ examples: ['ogr_01JD0000000000000000000000'] }),
    object: Type.Literal('oauth_grant'),
    app_id: Type.String(),
    client_id: Type.String(),
    member_id: Type.String(),
    scopes: Type.Array(Type.String()),
    created_at: DateTime,
    revoked_at: Nullable(DateTime),
    revoked_reason: Nullable(Type.String()),
  },
  { $id: 'OAuthGrant' },
)
export type OAuthGrantT = Static<typeof OAuthGrant>

/** listOAuthAuthorizations / revokeOAuthAuthorization: a consent given in this workspace, as its admins review it. */
export const OAuthAuthorization = Type.Object(
  {
    id: Type.String({ description: 'The grant id (`ogr_…`): the `keyId` its tokens act under.', examples: ['ogr_01JD0000000000000000000000'] }),
    object: Type.Literal('oauth_authorization'),
    app_id: Type.String({ examples: ['oapp_01JD0000000000000000000000'] }),
    client_id: Type.String(),
    app_name: Nullable(Type.String({ description: 'null once the app was deleted (its authorizations stay listed, revoked).' })),
    member_id: Type.String({ description: 'The member who consented (`mem_…`).' }),
    scopes: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('revoked')], {
      title: 'OAuthAuthorizationStatus',
      description: '`active`: a token of it still works; `expired`: not revoked, but its last refresh token expired; `revoked`: see `revoked_reason`.',
    }),
    expires_at: Nullable(Type.String({ format: 'date-time', description: 'When its last usable token expires (null unless active).' })),
    livemode: Type.Boolean(),
    created_at: DateTime,
    revoked_at: Nullable(DateTime),
    revoked_reason: Nullable(Type.String({ description: 'revoked by the workspace, member removed, member demoted, app deleted, revoked by the app, code reused, refresh token replayed…' })),
  },
  { $id: 'OAuthAuthorization' },
)
export type OAuthAuthorizationT = Static<typeof OAuthAuthorization>

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false })

export const DeletedOAuthApp = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('oauth_app'),
    client_id: Type.String(),
    deleted: Type.Literal(true),
    revoked_authorizations: Type.Integer({ minimum: 0, description: 'How many authorizations (in any workspace) the deletion revoked.' }),
  },
  { title: 'DeletedOAuthApp' },
)
export type DeletedOAuthAppT = Static<typeof DeletedOAuthApp>
