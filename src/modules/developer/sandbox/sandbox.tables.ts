import type { Mode } from '../../../kernel/tenant.js'

export type SandboxStatus = 'seeding' | 'ready' | 'failed'

/**
 * A sandbox workspace made by createSandboxWorkspace: a workspace of its own (`sandbox_workspace_id`, a
 * row of `workspaces`) that belongs to the workspace and mode that asked for it (`workspace_id`, `mode`).
 */
export interface DeveloperSandboxWorkspacesTable {
  id: string
  workspace_id: string
  mode: Mode
  sandbox_workspace_id: string
  name: string
  status: SandboxStatus
  /** The sandbox's test key (its secret is only ever in the create response; api_keys keeps its hash). */
  api_key_id: string
  api_key_prefix: string
  /** Space-separated, as api_keys.scopes. */
  api_key_scopes: string
  /** The Playground token its sample webhook endpoint delivers to (a capability: sealed, id as context). */
  playground_token_sealed: string
  /** JSON `{ "<seed step>": "<id of what it made>" }`: what the seeding job has done, so a retry skips it. */
  seeded: string
  error: string | null
  created_at: string
  updated_at: string
  ready_at: string | null
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    developer_sandbox_workspaces: DeveloperSandboxWorkspacesTable
  }
}
