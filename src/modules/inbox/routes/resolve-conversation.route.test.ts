import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, eventsFor } from '../inbox.testkit.js'

describe('resolveConversation (POST /inbox/conversations/{id}/resolve)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const resolve = (id: string, key?: string) => h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/resolve`, ...(key ? { key } : {}) })

  it('sets resolved and resolved_at and emits conversation.resolved with the resolved conversation', async () => {
    const { id } = await createConversation(h, { status: 'pending' })
    const r = await resolve(id)
    assert.equal(r.statusCode, 200, r.body)
    const c = json(r)
    assert.equal(c.status, 'resolved')
    assert.ok(c.resolved_at)
    assert.deepEqual(await eventsFor(h, 'conversation.resolved', id), [c])
  })

  it('resolving twice returns the conversation unchanged: the first resolved_at, no second event', async () => {
    const { id } = await createConversation(h)
    const first = json(await resolve(id))
    await new Promise((r) => setTimeout(r, 5))
    const second = await resolve(id)
    assert.equal(second.statusCode, 200)
    assert.deepEqual(json(second), first)
    assert.equal((await eventsFor(h, 'conversation.resolved', id)).length, 1)
  })

  it('a resolved conversation is reopened by an inbound message (conversation.reopened)', async () => {
    const { id } = await createConversation(h)
    await resolve(id)
    const m = await h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: 'one more thing', direction: 'inbound' } })
    assert.equal(m.statusCode, 201, m.body)
    const c = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` }))
    assert.equal(c.status, 'open')
    assert.equal(c.resolved_at, null)
    assert.deepEqual(await eventsFor(h, 'conversation.reopened', id), [c])
  })

  it("answers 404 for an unknown id and another workspace's conversation", async () => {
    const { id } = await createConversation(h)
    assertProblem(await resolve('conv_01JD0000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await resolve(id, h.b.live), 404, 'resource_not_found')
  })

  it('requires a key with messages:write', async () => {
    const { id } = await createConversation(h)
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${id}/resolve` })
  })
})
