import type { Mode } from '../../../kernel/tenant.js'

export type OAuthAppType = 'confidential' | 'public'

/** A partner application, registered by (and listed in) one workspace and mode; any workspace's members may authorize it. */
export interface OAuthAppsTable {
  id: string
  workspace_id: string
  mode: Mode
  client_id: string
  name: string
  type: OAuthAppType
  /** JSON string[]: exact strings, compared byte for byte. */
  redirect_uris: string
  /** Space-separated scope names the app may ask for. */
  allowed_scopes: string
  /** SHA-256 (hex) of the client secret (confidential apps; null for public ones). */
  secret_hash: string | null
  /** The secret's first characters, to recognise it (`svc_ocs_AbCd`). */
  secret_prefix: string | null
  /** The secret before the last rotation, still accepted until `previous_secret_expires_at`. */
  previous_secret_hash: string | null
  previous_secret_expires_at: string | null
  created_at: string
  updated_at: string
}

/**
 * One consent: a member of the granting workspace (workspace_id, mode) let an app act with `scopes`. It
 * carries its single-use authorization code (hashed, 60 s) and is the family of every token issued from
 * that code: revoking the grant revokes them all (code reuse, refresh-token reuse, RFC 7009 revocation).
 */
export interface OAuthGrantsTable {
  id: string
  workspace_id: string
  mode: Mode
  app_id: string
  client_id: string
  member_id: string
  scopes: string
  redirect_uri: string
  code_hash: string
  /** The PKCE S256 challenge, when the authorization request had one. */
  code_challenge: string | null
  code_expires_at: string
  code_used_at: string | null
  created_at: string
  revoked_at: string | null
  revoked_reason: string | null
}

/** Access (`svc_oat_`, 1 h) and refresh (`svc_ort_`, 30 days, rotated at each use) tokens, stored as SHA-256. */
export interface OAuthTokensTable {
  id: string
  token_hash: string
  kind: 'access' | 'refresh'
  grant_id: string
  workspace_id: string
  mode: Mode
  app_id: string
  client_id: string
  scopes: string
  created_at: string
  expires_at: string
  /** Refresh tokens: when it was exchanged for a new pair (a second use is a replay: the family is revoked). */
  rotated_at: string | null
  revoked_at: string | null
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    oauth_apps: OAuthAppsTable
    oauth_grants: OAuthGrantsTable
    oauth_tokens: OAuthTokensTable
  }
}
