import { fromJson } from '../../../kernel/db/database.js'
import type { GrantListed } from './oauth.repository.js'
import type { OAuthAppT, OAuthAuthorizationT, OAuthGrantT } from './oauth.schemas.js'
import type { OAuthAppsTable, OAuthGrantsTable } from './oauth.tables.js'

export const scopeList = (s: string): string[] => s.split(' ').filter(Boolean)

export function appView(row: OAuthAppsTable): OAuthAppT {
  return {
    id: row.id,
    object: 'oauth_app',
    client_id: row.client_id,
    name: row.name,
    type: row.type,
    redirect_uris: fromJson<string[]>(row.redirect_uris, []),
    allowed_scopes: scopeList(row.allowed_scopes),
    client_secret_prefix: row.secret_prefix,
    previous_secret_expires_at: row.previous_secret_expires_at,
    livemode: row.mode === 'live',
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function grantView(row: OAuthGrantsTable): OAuthGrantT {
  return {
    id: row.id,
    object: 'oauth_grant',
    app_id: row.app_id,
    client_id: row.client_id,
    member_id: row.member_id,
    scopes: scopeList(row.scopes),
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    revoked_reason: row.revoked_reason,
  }
}

export function authorizationView(row: GrantListed): OAuthAuthorizationT {
  const status = row.revoked_at ? 'revoked' : row.live_until ? 'active' : 'expired'
  return {
    id: row.id,
    object: 'oauth_authorization',
    app_id: row.app_id,
    client_id: row.client_id,
    app_name: row.app_name,
    member_id: row.member_id,
    scopes: scopeList(row.scopes),
    status,
    expires_at: status === 'active' ? row.live_until : null,
    livemode: row.mode === 'live',
    created_at: row.created_at,
    revoked_at: row.revoked_at,
    revoked_reason: row.revoked_reason,
  }
}
