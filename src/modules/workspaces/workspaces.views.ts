import { fromJson } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { MemberT, WorkspaceT } from './workspaces.schemas.js'
import type { WorkspaceMembersTable, WorkspacesTable } from './workspaces.tables.js'

/** The workspace row is shared by both modes; `livemode` says which key read it. */
export function workspaceView(row: WorkspacesTable, tenant: Tenant): WorkspaceT {
  return {
    id: row.id,
    object: 'workspace',
    name: row.name,
    timezone: row.timezone,
    default_language: row.default_language,
    metadata: fromJson(row.metadata, {}),
    livemode: tenant.mode === 'live',
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
