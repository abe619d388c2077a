import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, get, ok, post, type TestApp } from '../../../../../test/helpers.js'

describe('revokeApiKey', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('stops the key at once, twice is a no-op, and the audit log names who did it', async () => {
    const made = await ok(post(h, '/api-keys', { scopes: ['read'] }), 201)
    await ok(get(h, '/workspaces/current', made.key))
    const revoked = await ok(post(h, `/api-keys/${made.id}/revoke`, {}))
    assert.equal(revoked.status, 'revoked')
    assert.ok(revoked.revoked_at)
    assertProblem(await get(h, '/workspaces/current', made.key), 401, 'unauthorized')
    const again = await ok(post(h, `/api-keys/${made.id}/revoke`, {}))
    assert.equal(again.revoked_at, revoked.revoked_at)
    const audit = await ok(get(h, '/compliance/audit-log?limit=100'))
    const entry = audit.data.find((e: any) => e.action === 'revokeApiKey')
    assert.ok(entry && JSON.stringify(entry).includes(made.id), 'the revocation is in the audit log')
  })

  it('another workspace cannot revoke it', async () => {
    const made = await ok(post(h, '/api-keys', { scopes: ['read'] }), 201)
    assertProblem(await post(h, `/api-keys/${made.id}/revoke`, {}, { key: h.b.live }), 404, 'resource_not_found')
    await ok(get(h, '/workspaces/current', made.key))
  })
})
