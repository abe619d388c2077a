import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('removeWorkspaceMember', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const members = () => `/v2/workspaces/${h.a.workspaceId}/members`

  it('removes a member and returns it; a second delete is 404', async () => {
    const m = json(await h.request({ method: 'POST', url: members(), payload: { email: 'gone@example.com' } }))
    const res = await h.request({ method: 'DELETE', url: `${members()}/${m.id}` })
    assert.equal(res.statusCode, 200)
    assert.equal(json(res).id, m.id)
    assert.equal((await h.request({ method: 'DELETE', url: `${members()}/${m.id}` })).statusCode, 404)
    const list = json(await h.request({ method: 'GET', url: members() }))
    assert.ok(!list.data.some((x: { id: string }) => x.id === m.id))
  })

  it('refuses to remove the last owner', async () => {
    const owner = json(await h.request({ method: 'GET', url: members() })).data.find((m: { role: string }) => m.role === 'owner')
    const res = await h.request({ method: 'DELETE', url: `${members()}/${owner.id}` })
    assert.equal(res.statusCode, 409)
    assert.equal(json(res).code, 'last_owner')
  })
})
