import type { Fixture } from '../../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, idempotency), found by test/fixtures.ts.
export const FIXTURES: Record<string, Fixture> = {
  createSdkGeneration: async (c) => {
    // Generations are capped per workspace while pending: run earlier fixtures' jobs first.
    await c.drainJobs()
    return { params: {}, body: { language: 'node' } }
  },
}
