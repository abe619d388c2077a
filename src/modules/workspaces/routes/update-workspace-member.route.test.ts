import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('updateWorkspaceMember', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const members = () => `/v2/workspaces/${h.a.workspaceId}/members`

  it('changes role and name, and marks an invitation accepted', async () => {
    const m = json(await h.request({ method: 'POST', url: members(), payload: { email: 'cy@example.com' } }))
    const res = await h.request({ method: 'PATCH', url: `${members()}/${m.id}`, payload: { role: 'admin', name: 'Cy', status: 'active' } })
    assert.equal(res.statusCode, 200, res.body)
    const u = json(res)
    assert.deepEqual([u.role, u.name, u.status, u.invitation_url], ['admin', 'Cy', 'active', null])
    assert.ok(u.joined_at)
  })

  it('refuses to demote the last owner (409), allows it once another owner exists', async () => {
    const list = json(await h.request({ method: 'GET', url: members() }))
    const owner = list.data.find((m: { role: string }) => m.role === 'owner')
    const res = await h.request({ method: 'PATCH', url: `${members()}/${owner.id}`, payload: { role: 'member' } })
    assert.equal(res.statusCode, 409)
    assert.equal(json(res).code, 'last_owner')
    const other = json(await h.request({ method: 'POST', url: members(), payload: { email: 'new-owner@example.com', role: 'owner' } }))
    assert.equal((await h.request({ method: 'PATCH', url: `${members()}/${owner.id}`, payload: { role: 'member' } })).statusCode, 200)
    assert.equal((await h.request({ method: 'PATCH', url: `${members()}/${other.id}`, payload: { role: 'admin' } })).statusCode, 409)
  })

  it('answers 404 for an unknown member and 422 for a bad role', async () => {
    assert.equal((await h.request({ method: 'PATCH', url: `${members()}/mem_unknown`, payload: { role: 'admin' } })).statusCode, 404)
    const m = json(await h.request({ method: 'POST', url: members(), payload: { email: 'dee@example.com' } }))
    assert.equal((await h.request({ method: 'PATCH', url: `${members()}/${m.id}`, payload: { role: 'god' } })).statusCode, 422)
  })
})
