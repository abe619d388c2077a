import type { Fixture } from '../../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, idempotency), found by test/fixtures.ts.
export const FIXTURES: Record<string, Fixture> = {
  createSandboxWorkspace: async () => ({ params: {}, body: { name: `Fixture sandbox ${Date.now()}` } }),
}
