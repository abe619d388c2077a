import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function base(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Fixture base' } })
  return JSON.parse(r.body).id
}

async function document(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: `/v2/knowledge/bases/${await base(c)}/documents`, payload: { title: 'Refunds', text: 'Refunds are paid within 14 days.' } })
  return JSON.parse(r.body).id
}

export const FIXTURES: Record<string, Fixture> = {
  createKnowledgeBase: async () => ({ params: {}, body: { name: 'Fixture base' } }),
  getKnowledgeBase: async (c) => ({ id: await base(c) }),
  updateKnowledgeBase: async (c) => ({ params: { id: await base(c) }, body: { name: 'Renamed' } }),
  deleteKnowledgeBase: async (c) => ({ id: await base(c) }),
  listKnowledgeDocuments: async (c) => ({ id: await base(c) }),
  uploadKnowledgeDocument: async (c) => ({ params: { id: await base(c) }, body: { title: 'Fixture', text: `Fixture text ${Math.random()}` } }),
  getKnowledgeDocument: async (c) => ({ id: await document(c) }),
  deleteKnowledgeDocument: async (c) => ({ id: await document(c) }),
  // A write with no path id: the body gets it past validation (SEARCH).
  searchKnowledge: async () => ({ params: {}, body: { query: 'refund policy' } }),
  // Tests allow private networks; nothing listens on port 9: the crawl only has to be accepted.
  crawlKnowledgeSource: async (c) => ({ params: {}, body: { knowledge_base_id: await base(c), url: 'http://127.0.0.1:9/' } }),
}
