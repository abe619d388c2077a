import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

let n = 0
async function dsar(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/compliance/dsar', payload: { type: 'access', subject: { email: `fixture-${Date.now()}-${++n}@example.com` } } })
  return JSON.parse(r.body).id
}
async function evidence(c: FixtureClient): Promise<string> {
  // Listing makes the day's scheduled reports when the worker has not yet.
  const r = await c.request({ method: 'GET', url: '/v2/compliance/evidence?limit=1' })
  return JSON.parse(r.body).data[0].id
}

export const FIXTURES: Record<string, Fixture> = {
  createDsarRequest: async () => ({ params: {}, body: { type: 'access', subject: { email: `create-${Date.now()}-${++n}@example.com` } } }),
  getDsarRequest: async (c) => ({ id: await dsar(c) }),
  exportDsarRequest: async (c) => ({ params: { id: await dsar(c) } }),
  createComplianceEvidence: async () => ({ params: {}, body: { kind: 'access_review' } }),
  downloadComplianceEvidence: async (c) => ({ id: await evidence(c) }),
  redactPii: async () => ({ params: {}, body: { text: 'Mail ada@example.com' } }),
  updateRetentionPolicies: async () => ({ params: {}, body: { policies: { api_logs: 'keep' } } }),
}
