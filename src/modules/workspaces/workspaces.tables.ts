import type { Mode } from '../../kernel/tenant.js'

export interface WorkspacesTable {
  id: string
  name: string
  timezone: string
  default_language: string
  /** ISO 3166-1 alpha-2: where national phone numbers (no +country code) are read; null: none. */
  default_region: string | null
  metadata: string
  created_at: string
  updated_at: string
}

export type MemberRole = 'owner' | 'admin' | 'member'
export type MemberStatus = 'invited' | 'active'

export interface WorkspaceMembersTable {
  id: string
  workspace_id: string
  mode: Mode
  email: string
  name: string | null
  role: MemberRole
  status: MemberStatus
  invitation_token: string | null
  invited_at: string
  joined_at: string | null
  created_at: string
  updated_at: string
}

/** Per workspace and mode: integrations other modules read (the CRM leads sync to) and lead settings. */
export interface WorkspaceSettingsTable {
  workspace_id: string
  mode: Mode
  /** JSON {provider, base_url, url, access_token_sealed, signing_secret_sealed, updated_at}, or null. */
  crm: string | null
  /** A conversation whose lead score reaches this creates its lead (null: never). */
  lead_auto_create_score: number | null
  /** JSON {provider: 'twilio', account_sid, base_url, auth_token_sealed, updated_at}, or null (the simulated carrier). */
  voice: string | null
  updated_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    workspaces: WorkspacesTable
    workspace_members: WorkspaceMembersTable
    workspace_settings: WorkspaceSettingsTable
  }
}
