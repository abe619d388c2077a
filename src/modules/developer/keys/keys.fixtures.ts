import type { Fixture } from '../../../kernel/module.js'

// Loaded only by the shared route-table tests (idempotency-commit, security): valid bodies and existing keys.
const KEY = { name: 'Fixture key', scopes: ['read'] }
const makeKey: Fixture = async (c) => {
  const r = await c.request({ method: 'POST', url: '/v2/api-keys', payload: KEY })
  return { id: JSON.parse(r.body).id }
}

export const FIXTURES: Record<string, Fixture> = {
  createApiKey: async () => ({ params: {}, body: KEY }),
  getApiKey: makeKey,
  revokeApiKey: makeKey,
}
