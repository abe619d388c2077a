import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, get, ok, post, type TestApp } from '../../../../../test/helpers.js'

describe('listApiKeys', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('lists this workspace and mode newest first, with status filter and when each key was last used', async () => {
    const one = await ok(post(h, '/api-keys', { name: 'one', scopes: ['read'] }), 201)
    const two = await ok(post(h, '/api-keys', { name: 'two', scopes: ['read'] }), 201)
    await ok(post(h, `/api-keys/${one.id}/revoke`, {}))
    await ok(get(h, '/workspaces/current', two.key))
    await h.app.kernel.requests.flush()
    const all = await ok(get(h, '/api-keys?limit=2'))
    assert.deepEqual(
      all.data.map((k: any) => k.name),
      ['two', 'one'],
    )
    assert.equal(all.has_more, true)
    assert.ok(all.data[0].last_used_at, 'used keys show when')
    assert.equal(all.data[1].last_used_at, null)
    assert.deepEqual(
      (await ok(get(h, '/api-keys?status=revoked'))).data.map((k: any) => k.id),
      [one.id],
    )
    assert.ok(!(await ok(get(h, '/api-keys?status=active&limit=100'))).data.some((k: any) => k.id === one.id))
    assert.ok(!JSON.stringify(all).includes(two.key))
  })

  it('another workspace and the sandbox see none of them', async () => {
    const made = await ok(post(h, '/api-keys', { scopes: ['read'] }), 201)
    assert.ok(!(await ok(get(h, '/api-keys?limit=100', h.b.live))).data.some((k: any) => k.id === made.id))
    assert.ok(!(await ok(h.request({ method: 'GET', url: '/sandbox/v2/api-keys?limit=100', key: h.a.test }))).data.some((k: any) => k.id === made.id))
  })
})
