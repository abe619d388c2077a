import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getCurrentWorkspace', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('returns the workspace of the key, with livemode telling which base URL answered', async () => {
    const live = json(await h.request({ method: 'GET', url: '/v2/workspaces/current' }))
    assert.equal(live.id, h.a.workspaceId)
    assert.equal(live.object, 'workspace')
    assert.equal(live.livemode, true)
    assert.match(live.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    const sandbox = json(await h.request({ method: 'GET', url: '/sandbox/v2/workspaces/current', key: h.a.test }))
    assert.equal(sandbox.id, h.a.workspaceId)
    assert.equal(sandbox.livemode, false)
    const other = json(await h.request({ method: 'GET', url: '/v2/workspaces/current', key: h.b.live }))
    assert.equal(other.id, h.b.workspaceId)
  })

  it('works with any key that holds read (granular scopes do not)', async () => {
    assert.equal((await h.request({ method: 'GET', url: '/v2/workspaces/current', key: await h.key(['write']) })).statusCode, 200)
    assert.equal((await h.request({ method: 'GET', url: '/v2/workspaces/current', key: await h.key(['conversations:read']) })).statusCode, 403)
  })
})
