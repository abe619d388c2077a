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

  it("shows the settings of the key's mode: a test key's lead threshold is not the live one's", async () => {
    const patched = await h.request({ method: 'PATCH', url: `/sandbox/v2/workspaces/${h.a.workspaceId}`, key: h.a.test, payload: { lead_auto_create_score: 40 } })
    assert.equal(patched.statusCode, 200, patched.body)
    const sandbox = json(await h.request({ method: 'GET', url: '/sandbox/v2/workspaces/current', key: h.a.test }))
    assert.equal(sandbox.lead_auto_create_score, 40)
    assert.equal(sandbox.crm, null)
    const live = json(await h.request({ method: 'GET', url: '/v2/workspaces/current' }))
    assert.equal(live.lead_auto_create_score, null)
    assert.equal(live.name, sandbox.name)
  })
})
