import type { Fixture } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.
export const FIXTURES: Record<string, Fixture> = {
  updateConversationPresence: async (c) => {
    const r = await c.request({ method: 'POST', url: '/v2/inbox/conversations', payload: {} })
    return { params: { id: JSON.parse(r.body).id }, body: { state: 'viewing' } }
  },
}
