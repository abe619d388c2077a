import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function endpoint(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/webhooks' } })
  return JSON.parse(r.body).id
}

async function delivery(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: `/v2/webhooks/endpoints/${await endpoint(c)}/test` })
  return JSON.parse(r.body).id
}

// Public (no key, no workspace): any well-formed token is an inbox, so there is no cross-workspace 404.
const token = () => `pg${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`.padEnd(24, 'x')

export const FIXTURES: Record<string, Fixture> = {
  createWebhookEndpoint: async () => ({ params: {}, body: { url: 'https://example.com/fixture' } }),
  createPublicWebhookEndpoint: async () => ({ params: {}, body: { url: 'https://example.com/fixture' } }),
  getWebhookEndpoint: async (c) => ({ id: await endpoint(c) }),
  updateWebhookEndpoint: async (c) => ({ params: { id: await endpoint(c) }, body: { description: 'Renamed' } }),
  deleteWebhookEndpoint: async (c) => ({ id: await endpoint(c) }),
  testWebhookEndpoint: async (c) => ({ id: await endpoint(c) }),
  rotateWebhookSecret: async (c) => ({ params: { id: await endpoint(c) }, body: {} }),
  getPublicWebhookEndpoint: async (c) => ({ id: await endpoint(c) }),
  updatePublicWebhookEndpoint: async (c) => ({ params: { id: await endpoint(c) }, body: { description: 'Renamed' } }),
  deletePublicWebhookEndpoint: async (c) => ({ id: await endpoint(c) }),
  getWebhookDelivery: async (c) => ({ id: await delivery(c) }),
  replayWebhookDelivery: async (c) => ({ params: { id: await delivery(c) }, body: {} }),
  captureWebhookPlaygroundGet: async () => ({ token: token() }),
  captureWebhookPlaygroundPost: async () => ({ token: token() }),
  captureWebhookPlaygroundPut: async () => ({ token: token() }),
  captureWebhookPlaygroundPatch: async () => ({ token: token() }),
  captureWebhookPlaygroundDelete: async () => ({ token: token() }),
}
