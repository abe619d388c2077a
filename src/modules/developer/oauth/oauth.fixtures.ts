import type { TestApp } from '../../../../test/helpers.js'
import type { Fixture } from '../../../kernel/module.js'
import { authorizationInA } from './oauth.testkit.js'

// Loaded only by the shared route-table tests (idempotency-commit, security): valid bodies for the writes.
const APP = { name: 'Fixture app', redirect_uris: ['https://app.example.com/cb'], allowed_scopes: ['read'] }

export const FIXTURES: Record<string, Fixture> = {
  createOAuthApp: async () => ({ params: {}, body: APP }),
  updateOAuthApp: async (c) => {
    const r = await c.request({ method: 'POST', url: '/v2/oauth/apps', payload: APP })
    return { params: {}, body: { client_id: JSON.parse(r.body).client_id, name: 'Renamed' } }
  },
  deleteOAuthApp: async (c) => {
    const r = await c.request({ method: 'POST', url: '/v2/oauth/apps', payload: APP })
    return { id: JSON.parse(r.body).id }
  },
  // The suites pass the test app as the fixture client; an authorization needs the browser flow, not only API calls.
  revokeOAuthAuthorization: async (c) => ({ id: (await authorizationInA(c as unknown as TestApp)).id }),
}
