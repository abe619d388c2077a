import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, createTag, eventsFor } from '../inbox.testkit.js'

describe('updateConversation (PATCH /inbox/conversations/{id})', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const patch = (id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) => h.request({ method: 'PATCH', url: `/v2/inbox/conversations/${id}`, payload, headers })

  it('follows the documented state machine pair by pair: allowed or the same status is 200, anything else 409', async () => {
    // The answer key: docs/inbox.md "States", written here (not imported from inbox.status.ts, which it checks).
    const MAY_BECOME: Record<string, string[]> = {
      open: ['pending', 'snoozed', 'resolved'],
      pending: ['open', 'snoozed', 'resolved'],
      snoozed: ['open', 'pending', 'resolved'],
      resolved: ['open'],
    }
    for (const from of Object.keys(MAY_BECOME)) {
      for (const to of Object.keys(MAY_BECOME)) {
        const { id } = await createConversation(h)
        if (from !== 'open') assert.equal(json(await patch(id, { status: from })).status, from)
        const r = await patch(id, { status: to })
        if (to === from || MAY_BECOME[from].includes(to)) {
          assert.equal(r.statusCode, 200, `${from} → ${to}: ${r.body}`)
          assert.equal(json(r).status, to)
        } else {
          assertProblem(r, 409, 'invalid_status_transition')
          assert.deepEqual([...(json(r).allowed as string[])].sort(), [...MAY_BECOME[from]].sort(), `${from} → ${to}`)
        }
      }
    }
  })

  it('moves through the state machine and emits updated, resolved and reopened events', async () => {
    const { id } = await createConversation(h)
    assert.equal(json(await patch(id, { status: 'pending' })).status, 'pending')
    const until = new Date(Date.now() + 3600_000).toISOString()
    const snoozed = json(await patch(id, { status: 'snoozed', snoozed_until: until }))
    assert.equal(snoozed.status, 'snoozed')
    assert.equal(snoozed.snoozed_until, until)
    const resolved = json(await patch(id, { status: 'resolved' }))
    assert.equal(resolved.status, 'resolved')
    assert.ok(resolved.resolved_at)
    assert.equal(resolved.snoozed_until, null)
    const reopened = json(await patch(id, { status: 'open' }))
    assert.equal(reopened.resolved_at, null)
    assert.equal((await eventsFor(h, 'conversation.updated', id)).length, 4)
    assert.deepEqual(await eventsFor(h, 'conversation.resolved', id), [resolved])
    assert.deepEqual(await eventsFor(h, 'conversation.reopened', id), [reopened])
  })

  it('answers 409 invalid_status_transition for resolved → snoozed or pending, naming the allowed ones', async () => {
    const { id } = await createConversation(h)
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/resolve` })
    for (const status of ['snoozed', 'pending']) {
      const r = await patch(id, { status })
      assertProblem(r, 409, 'invalid_status_transition')
      assert.deepEqual(json(r).allowed, ['open'])
      assert.equal(json(r).current_status, 'resolved')
    }
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })).status, 'resolved')
  })

  it('accepts a manual lead_score as an object or a plain number, and null returns to the automatic score', async () => {
    const { id } = await createConversation(h, { contact: { email: 'x@example.com' } })
    const asObject = json(await patch(id, { lead_score: { score: 90, factors: ['met at the fair'] } }))
    assert.deepEqual(asObject.lead_score, { score: 90, factors: ['met at the fair'] })
    const asNumber = json(await patch(id, { lead_score: 75 }))
    assert.deepEqual(asNumber.lead_score, { score: 75, factors: ['set manually'] })
    // A manual score survives new messages.
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: 'what is the price?', direction: 'inbound' } })
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })).lead_score.score, 75)
    const auto = json(await patch(id, { lead_score: null }))
    assert.equal(auto.lead_score.score, 20 + 25 + 3)
    const pinned = json(await patch(id, { lead_score: 60 }, { 'svc-api-version': '2.3.4' }))
    assert.equal(pinned.lead_score, 60)
  })

  it('rejects a lead_score out of range or malformed with 422', async () => {
    const { id } = await createConversation(h)
    for (const lead_score of [101, -1, '50', { score: 50 }, { score: 50, factors: 'x' }]) {
      assertProblem(await patch(id, { lead_score }), 422, 'validation_failed')
    }
  })

  it('merges contact fields (null clears), replaces tags, rescoring as the contact changes', async () => {
    await createTag(h, 'Billing')
    await createTag(h, 'Urgent')
    const { id } = await createConversation(h, { contact: { name: 'Ada', phone: '+4915112345678' }, tags: ['billing'] })
    const c = json(await patch(id, { contact: { email: 'ada@example.com', phone: null }, tags: ['URGENT', 'billing'] }))
    assert.deepEqual(c.contact, { name: 'Ada', email: 'ada@example.com', phone: null, external_id: null })
    assert.deepEqual(c.tags.sort(), ['Billing', 'Urgent'])
    assert.deepEqual(c.lead_score, { score: 20, factors: ['+20 contact gave an email address'] })
    const byTag = json(await h.request({ method: 'GET', url: '/v2/inbox/conversations?tag=urgent' }))
    assert.deepEqual(
      byTag.data.map((x: { id: string }) => x.id),
      [id],
    )
    assertProblem(await patch(id, { tags: ['ghost'] }), 422, 'unknown_tag')
  })

  it('rejects empty bodies, unknown fields and misplaced or past snoozed_until with 422', async () => {
    const { id } = await createConversation(h)
    assertProblem(await patch(id, {}), 422, 'validation_failed')
    assertProblem(await patch(id, { assignee_id: null }), 422, 'validation_failed')
    assertProblem(await patch(id, { snoozed_until: new Date(Date.now() + 60_000).toISOString() }), 422, 'validation_failed')
    assertProblem(await patch(id, { status: 'snoozed', snoozed_until: '2001-01-01T00:00:00Z' }), 422, 'validation_failed')
  })

  it("answers 404 for an unknown id and for another workspace's conversation", async () => {
    const { id } = await createConversation(h)
    assertProblem(await patch('conv_01JD0000000000000000000000', { subject: 'x' }), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'PATCH', url: `/v2/inbox/conversations/${id}`, payload: { subject: 'x' }, key: h.b.live }), 404)
  })

  it('requires a key with messages:write', async () => {
    const { id } = await createConversation(h)
    await assertAuthRequired(h, { method: 'PATCH', url: `/v2/inbox/conversations/${id}`, payload: { subject: 'x' } })
  })
})
