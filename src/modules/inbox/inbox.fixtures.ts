import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function conversation(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { message: { content: 'How much is the Pro plan?' } } })
  return JSON.parse(r.body).id
}

const unique = () => Math.random().toString(36).slice(2, 10)

export const FIXTURES: Record<string, Fixture> = {
  createConversation: async () => ({ params: {}, body: { subject: 'Fixture' } }),
  createReplyTemplate: async () => ({ params: {}, body: { name: `Template ${unique()}`, content: 'Hello {{contact.name}}' } }),
  createInboxTag: async () => ({ params: {}, body: { name: `tag-${unique()}` } }),
  getConversation: async (c) => ({ id: await conversation(c) }),
  updateConversation: async (c) => ({ params: { id: await conversation(c) }, body: { subject: 'Renamed' } }),
  listMessages: async (c) => ({ id: await conversation(c) }),
  sendMessage: async (c) => ({ params: { id: await conversation(c) }, body: { content: 'Hello' } }),
  createAiDraft: async (c) => ({ params: { id: await conversation(c) }, body: {} }),
  assignConversation: async (c) => ({ params: { id: await conversation(c) }, body: { assignee_id: null } }),
  resolveConversation: async (c) => ({ id: await conversation(c) }),
  markConversationRead: async (c) => ({ params: { id: await conversation(c) }, body: {} }),
  snoozeConversation: async (c) => ({ params: { id: await conversation(c) }, body: { until: new Date(Date.now() + 3600_000).toISOString() } }),
}
