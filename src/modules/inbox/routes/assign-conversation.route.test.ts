import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, eventsFor } from '../inbox.testkit.js'

describe('assignConversation (POST /inbox/conversations/{id}/assign)', () => {
  let h: TestApp
  let ownerId: string
  before(async () => {
    h = await createTestApp()
    ownerId = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` })).data[0].id
  })
  after(() => h.close())
  const assign = (id: string, assignee_id: string | null, key?: string) => h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/assign`, payload: { assignee_id }, ...(key ? { key } : {}) })

  it('assigns to an active member, then unassigns, emitting conversation.assigned each time', async () => {
    const { id } = await createConversation(h)
    const assigned = await assign(id, ownerId)
    assert.equal(assigned.statusCode, 200, assigned.body)
    assert.equal(json(assigned).assignee_id, ownerId)
    // The same assignee again changes nothing and emits nothing.
    assert.equal(json(await assign(id, ownerId)).updated_at, json(assigned).updated_at)
    const unassigned = json(await assign(id, null))
    assert.equal(unassigned.assignee_id, null)
    const events = await eventsFor(h, 'conversation.assigned', id)
    assert.deepEqual(
      events.map((e) => e.assignee_id),
      [ownerId, null],
    )
  })

  it('answers 422 assignee_not_member for an invited member, an unknown id or a member of another workspace', async () => {
    const { id } = await createConversation(h)
    const invited = json(await h.request({ method: 'POST', url: `/v2/workspaces/${h.a.workspaceId}/members`, payload: { email: 'new@example.com' } })).id
    const bOwner = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.b.workspaceId}/members`, key: h.b.live })).data[0].id
    for (const who of [invited, 'mem_01JD0000000000000000000000', bOwner]) {
      assertProblem(await assign(id, who), 422, 'assignee_not_member')
    }
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/assign`, payload: {} }), 422, 'validation_failed')
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })).assignee_id, null)
  })

  it("answers 404 for another workspace's conversation", async () => {
    const { id } = await createConversation(h)
    assertProblem(await assign(id, null, h.b.live), 404, 'resource_not_found')
  })

  it('requires a key with messages:write', async () => {
    const { id } = await createConversation(h)
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${id}/assign`, payload: { assignee_id: null } })
  })
})
