import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('listWorkspaceMembers', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('lists the owner and invited members newest first with the list envelope', async () => {
    await h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, payload: { email: 'ann@example.com' } })
    const body = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` }))
    assert.equal(body.object, 'list')
    assert.equal(body.has_more, false)
    assert.equal(body.next_cursor, null)
    assert.deepEqual(
      body.data.map((m: { email: string }) => m.email),
      ['ann@example.com', 'owner@acme.example'],
    )
  })

  it('never shows another workspace’s members', async () => {
    const body = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.b.workspaceId}/members`, key: h.b.live }))
    assert.ok(body.data.every((m: { workspace_id: string }) => m.workspace_id === h.b.workspaceId))
    assert.equal((await h.request({ method: 'GET', url: `/v2/workspaces/${h.b.workspaceId}/members` })).statusCode, 404)
  })
})
