import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, get, ok, post, type TestApp } from '../../../../../test/helpers.js'

describe('getApiKey', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('shows one key without its secret; another workspace gets 404', async () => {
    const made = await ok(post(h, '/api-keys', { name: 'ci', scopes: ['read', 'webhooks:write'] }), 201)
    const key = await ok(get(h, `/api-keys/${made.id}`))
    assert.deepEqual({ id: key.id, name: key.name, scopes: key.scopes, key: key.key }, { id: made.id, name: 'ci', scopes: ['read', 'webhooks:write'], key: undefined })
    assertProblem(await get(h, `/api-keys/${made.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/api-keys/key_nothere'), 404, 'resource_not_found')
    assertProblem(await get(h, '/api-keys/bot_1'), 422, 'validation_failed')
  })
})
