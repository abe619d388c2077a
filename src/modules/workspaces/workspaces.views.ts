import { fromJson } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { MemberT, SettingsSection, WorkspaceT } from './workspaces.schemas.js'
import type { WorkspaceMembersTable, WorkspaceSettingsTable, WorkspacesTable } from './workspaces.tables.js'

/** The sections other modules registered, by column. */
export type SettingsSections = ReadonlyMap<'crm' | 'voice', SettingsSection<unknown>>

/** The workspace row is shared by both modes; `livemode` says which key read it. */
/** `sections`: how the owning modules show the settings they keep here (leads: crm, voice: voice). */
export function workspaceView(row: WorkspacesTable, tenant: Tenant, settings: WorkspaceSettingsTable | undefined, sections: SettingsSections): WorkspaceT {
  const shown = (column: 'crm' | 'voice') => {
    const stored = settings?.[column] ?? null
    const section = sections.get(column)
    return (stored !== null && section ? section.view(stored) : null) as never
  }
  return {
    id: row.id,
    object: 'workspace',
    name: row.name,
    timezone: row.timezone,
    default_language: row.default_language,
    default_region: row.default_region ?? null,
    metadata: fromJson(row.metadata, {}),
    livemode: tenant.mode === 'live',
    crm: shown('crm'),
    lead_auto_create_score: settings?.lead_auto_create_score ?? null,
    voice: shown('voice'),
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
