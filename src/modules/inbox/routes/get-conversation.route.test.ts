import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation } from '../inbox.testkit.js'

describe('getConversation (GET /inbox/conversations/{id})', () => {
  let h: TestApp
  let id: string
  before(async () => {
    h = await createTestApp()
    id = (await createConversation(h, { contact: { email: 'lead@example.com' } })).id
  })
  after(() => h.close())

  it('returns the conversation with lead_score as { score, factors }', async () => {
    const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })
    assert.equal(r.statusCode, 200, r.body)
    assert.equal(json(r).id, id)
    assert.deepEqual(json(r).lead_score, { score: 20, factors: ['+20 contact gave an email address'] })
  })

  it('returns the plain number to a client pinned before 2.4.0, and the object from 2.4.0 on', async () => {
    const old = await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}`, headers: { 'svc-api-version': '2.3.4' } })
    assert.equal(json(old).lead_score, 20)
    const current = await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}`, headers: { 'svc-api-version': '2.4.0' } })
    assert.deepEqual(json(current).lead_score.score, 20)
  })

  it('answers 422 for a malformed Svc-Api-Version', async () => {
    const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}`, headers: { 'svc-api-version': 'latest' } })
    assertProblem(r, 422, 'validation_failed')
  })

  it('answers 404 for an unknown or malformed id, never 5xx', async () => {
    for (const bad of ['conv_01JD0000000000000000000000', 'nonsense', 'conv_%E2%9C%93', "conv_'or'1'='1"]) {
      assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${bad}` }), 404, 'resource_not_found')
    }
    // U+0000 is refused by the kernel before any lookup.
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/conversations/%00' }), 422, 'validation_failed')
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${'x'.repeat(65)}` }), 422, 'validation_failed')
  })

  it('hides the conversation from another workspace and from the sandbox', async () => {
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}`, key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/inbox/conversations/${id}`, key: h.a.test }), 404, 'resource_not_found')
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: `/v2/inbox/conversations/${id}` })
  })
})
