import { fromJson } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { MemberT, WorkspaceT } from './workspaces.schemas.js'
import type { WorkspaceMembersTable, WorkspaceSettingsTable, WorkspacesTable } from './workspaces.tables.js'

/** The workspace row is shared by both modes; `livemode` says which key read it. */
/** The voice carrier settings as stored (the token sealed under the workspace id and mode). */
export interface StoredVoice {
  provider: 'twilio'
  account_sid: string
  base_url: string
  auth_token_sealed: string | null
  updated_at: string
}

/** The CRM settings as stored (secrets sealed under the workspace id and mode). */
export interface StoredCrm {
  provider: 'hubspot' | 'webhook'
  base_url: string | null
  url: string | null
  access_token_sealed: string | null
  signing_secret_sealed: string | null
  updated_at: string
}

export function workspaceView(row: WorkspacesTable, tenant: Tenant, settings?: WorkspaceSettingsTable): WorkspaceT {
  const crm = fromJson<StoredCrm | null>(settings?.crm ?? null, null)
  const voice = fromJson<StoredVoice | null>(settings?.voice ?? null, null)
  return {
    id: row.id,
    object: 'workspace',
    name: row.name,
    timezone: row.timezone,
    default_language: row.default_language,
    default_region: row.default_region ?? null,
    metadata: fromJson(row.metadata, {}),
    livemode: tenant.mode === 'live',
    crm: crm
      ? { provider: crm.provider, base_url: crm.base_url, url: crm.url, access_token_set: !!crm.access_token_sealed, signing_secret_set: !!crm.signing_secret_sealed, updated_at: crm.updated_at }
      : null,
    lead_auto_create_score: settings?.lead_auto_create_score ?? null,
    voice: voice ? { provider: voice.provider, account_sid: voice.account_sid, base_url: voice.base_url, auth_token_set: !!voice.auth_token_sealed, updated_at: voice.updated_at } : null,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function memberView(publicUrl: string, row: WorkspaceMembersTable): MemberT {
  return {
    id: row.id,
    object: 'workspace_member',
    workspace_id: row.workspace_id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    invitation_url: row.status === 'invited' && row.invitation_token ? `${publicUrl}/invitations/${row.invitation_token}` : null,
    invited_at: row.invited_at,
    joined_at: row.joined_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}
