import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function agent(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/agents', payload: { name: 'Fixture agent' } })
  return JSON.parse(r.body).id
}

async function run(c: FixtureClient): Promise<{ agent: string; run: string }> {
  const id = await agent(c)
  const r = await c.request({ method: 'POST', url: `/v2/agents/${id}/runs`, payload: { input: 'Hello there' } })
  return { agent: id, run: JSON.parse(r.body).id }
}

/** A run stopped before a call of a tool every call of which needs approval (its worker ran). */
async function waitingRun(c: FixtureClient): Promise<{ agent: string; run: string }> {
  const tool = {
    type: 'http',
    name: 'refund_order',
    description: 'Refund an order: the amount goes back to the customer.',
    url: 'https://shop.example/refunds',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
    approval: { mode: 'always' },
  }
  const a = await c.request({ method: 'POST', url: '/v2/agents', payload: { name: 'Fixture agent', tools: [tool] } })
  const id = JSON.parse(a.body).id
  const r = await c.request({ method: 'POST', url: `/v2/agents/${id}/runs`, payload: { input: 'Please refund order ord_1' } })
  await c.drainJobs()
  return { agent: id, run: JSON.parse(r.body).id }
}

export const FIXTURES: Record<string, Fixture> = {
  createAgent: async () => ({ params: {}, body: { name: 'Fixture agent' } }),
  getAgent: async (c) => ({ id: await agent(c) }),
  updateAgent: async (c) => ({ params: { id: await agent(c) }, body: { name: 'Renamed' } }),
  listAgentRuns: async (c) => ({ id: await agent(c) }),
  createAgentRun: async (c) => ({ params: { id: await agent(c) }, body: { input: 'Hello there' } }),
  getAgentRun: async (c) => {
    const r = await run(c)
    return { params: { id: r.agent, run_id: r.run } }
  },
  approveAgentRun: async (c) => {
    const r = await waitingRun(c)
    return { params: { id: r.agent, run_id: r.run }, body: { decision: 'approve' } }
  },
  cancelAgentRun: async (c) => {
    const r = await run(c)
    return { params: { id: r.agent, run_id: r.run }, body: {} }
  },
  dryRunAgent: async (c) => ({ params: { id: await agent(c) }, body: { input: 'Hello there' } }),
  streamAgentDryRun: async (c) => ({ params: { id: await agent(c) }, body: { input: 'Hello there' } }),
  listAgentApprovals: async (c) => ({ id: await agent(c) }),
}
