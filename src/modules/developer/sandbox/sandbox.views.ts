import { fromJson } from '../../../kernel/db/database.js'
import { SEEDED_KINDS, type SandboxWorkspaceT, type SeededKind } from './sandbox.schemas.js'
import type { DeveloperSandboxWorkspacesTable } from './sandbox.tables.js'

/** The kind a seed step's key counts as (`conversation:1` → conversations; see sandbox-seed.ts). */
export const KIND_OF_STEP: Record<string, SeededKind> = {
  webhook_endpoint: 'webhook_endpoints',
  tag: 'tags',
  knowledge_base: 'knowledge_bases',
  knowledge_document: 'knowledge_documents',
  bot: 'bots',
  agent: 'agents',
  lead: 'leads',
  conversation: 'conversations',
  message: 'messages',
}

export function seededCounts(seeded: Record<string, string>): Record<SeededKind, number> {
  const counts = Object.fromEntries(SEEDED_KINDS.map((k) => [k, 0])) as Record<SeededKind, number>
  for (const step of Object.keys(seeded)) {
    const kind = KIND_OF_STEP[step.split(':')[0]]
    if (kind) counts[kind]++
  }
  return counts
}

/** Row → resource; `publicUrl` and the opened Playground token come from the service. */
export function sandboxView(r: DeveloperSandboxWorkspacesTable, publicUrl: string, playgroundToken: string): SandboxWorkspaceT {
  return {
    id: r.id,
    object: 'sandbox_workspace',
    name: r.name,
    workspace_id: r.sandbox_workspace_id,
    status: r.status,
    error: r.error,
    base_url: `${publicUrl}/sandbox/v2`,
    api_key: { id: r.api_key_id, prefix: r.api_key_prefix, scopes: r.api_key_scopes.split(' ').filter(Boolean) },
    playground_url: `${publicUrl}/sandbox/v2/webhooks/playground/${playgroundToken}`,
    seeded: seededCounts(fromJson<Record<string, string>>(r.seeded, {})),
    created_at: r.created_at,
    ready_at: r.ready_at,
  }
}
