import { defineEvents, eventType, type PayloadsOf } from '../../../kernel/events/events.js'
import { SandboxWorkspace, type SandboxWorkspaceT } from './sandbox.schemas.js'

const EXAMPLE: SandboxWorkspaceT = {
  id: 'sbx_01JD0000000000000000000000',
  object: 'sandbox_workspace',
  name: 'Sandbox of Acme',
  workspace_id: 'ws_01JD0000000000000000000001',
  status: 'ready',
  error: null,
  base_url: 'https://api.example.com/sandbox/v2',
  api_key: { id: 'key_01JD0000000000000000000002', prefix: 'svc_test_AbCd', scopes: ['admin'] },
  playground_url: 'https://api.example.com/sandbox/v2/webhooks/playground/pg_AbCdEfGhIjKlMnOpQrStUvWx',
  seeded: { webhook_endpoints: 1, tags: 4, knowledge_bases: 1, knowledge_documents: 3, bots: 1, agents: 1, leads: 3, conversations: 3, messages: 6 },
  created_at: '2026-12-01T09:00:00.000Z',
  ready_at: '2026-12-01T09:00:02.000Z',
}

/** Event types of the sandbox workspaces (developer module), emitted to the workspace that made the sandbox. */
export const SANDBOX_EVENTS = defineEvents(
  'developer',
  { scope: 'read' },
  {
    'sandbox_workspace.ready': eventType({ description: 'A sandbox workspace finished seeding its sample data.', schema: SandboxWorkspace, example: EXAMPLE }),
    'sandbox_workspace.failed': eventType({
      description: 'Seeding a sandbox workspace failed for good (`error`); what was made stays, the key keeps working.',
      schema: SandboxWorkspace,
      example: { ...EXAMPLE, status: 'failed', error: 'inbox: validation_failed', ready_at: null },
    }),
  },
)

declare module '../../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof SANDBOX_EVENTS> {}
}
