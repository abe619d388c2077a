import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

let n = 0
async function lead(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/leads', payload: { name: 'Fixture lead', email: `fixture-${Date.now()}-${++n}@example.com` } })
  return JSON.parse(r.body).id
}

export const FIXTURES: Record<string, Fixture> = {
  createLead: async () => ({ params: {}, body: { name: 'Fixture lead', email: `create-${Date.now()}-${++n}@example.com` } }),
  getLead: async (c) => ({ id: await lead(c) }),
  updateLead: async (c) => ({ params: { id: await lead(c) }, body: { company: 'Acme' } }),
  deleteLead: async (c) => ({ id: await lead(c) }),
  qualifyLead: async (c) => ({ params: { id: await lead(c) }, body: { answers: { budget: '10k per year' } } }),
  syncLeadToCrm: async (c) => {
    await c.request({
      method: 'PATCH',
      url: `/v2/workspaces/${c.a.workspaceId}`,
      payload: { crm: { provider: 'webhook', url: 'https://crm.example/leads', signing_secret: 'whsec_fixture_secret_123456' } },
    })
    return { params: { id: await lead(c) } }
  },
  listLeadActivities: async (c) => ({ id: await lead(c) }),
  createLeadActivity: async (c) => ({ params: { id: await lead(c) }, body: { type: 'note', body: 'Called, no answer.' } }),
  updateLeadStatus: async (c) => ({ params: { id: await lead(c) }, body: { status: 'contacted' } }),
}
