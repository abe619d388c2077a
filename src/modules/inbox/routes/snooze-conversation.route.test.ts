import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, eventsFor, sendMessage } from '../inbox.testkit.js'

describe('snoozeConversation (POST /inbox/conversations/{id}/snooze)', () => {
  let h: TestApp
  const clock = new ManualClock(Date.parse('2026-11-28T09:00:00Z'))
  before(async () => (h = await createTestApp({ clock })))
  after(() => h.close())
  const snooze = (id: string, until: string, key?: string) => h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/snooze`, payload: { until }, ...(key ? { key } : {}) })
  const inHours = (n: number) => new Date(clock.now().getTime() + n * 3600_000).toISOString()
  const status = async (id: string) => json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` }))

  it('snoozes until a time; at that time the job opens it again with conversation.updated', async () => {
    const c = await createConversation(h, {})
    const until = inHours(2)
    const r = await snooze(c.id, until)
    assert.equal(r.statusCode, 200, r.body)
    assert.equal(json(r).status, 'snoozed')
    assert.equal(json(r).snoozed_until, until)
    assert.equal((await eventsFor(h, 'conversation.updated', c.id)).length, 1)
    clock.advance(3600_000)
    await h.drainJobs()
    assert.equal((await status(c.id)).status, 'snoozed', 'not yet')
    clock.advance(3600_000)
    await h.drainJobs()
    const woken = await status(c.id)
    assert.equal(woken.status, 'open')
    assert.equal(woken.snoozed_until, null)
    const updates = await eventsFor(h, 'conversation.updated', c.id)
    assert.equal(updates.length, 2)
    assert.equal(updates[1].status, 'open')
  })

  it('an inbound message wakes it first; the job then does nothing', async () => {
    const c = await createConversation(h, {})
    await snooze(c.id, inHours(1))
    await sendMessage(h, c.id, { content: 'Still waiting', direction: 'inbound' })
    assert.equal((await status(c.id)).status, 'open')
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/resolve` })
    const before = (await eventsFor(h, 'conversation.updated', c.id)).length
    clock.advance(2 * 3600_000)
    await h.drainJobs()
    assert.equal((await status(c.id)).status, 'resolved', 'the stale wake-up left it alone')
    assert.equal((await eventsFor(h, 'conversation.updated', c.id)).length, before)
  })

  it('snoozed again: only the latest time wakes it', async () => {
    const c = await createConversation(h, {})
    await snooze(c.id, inHours(1))
    const later = inHours(5)
    await snooze(c.id, later)
    clock.advance(2 * 3600_000)
    await h.drainJobs()
    assert.equal((await status(c.id)).status, 'snoozed')
    clock.advance(4 * 3600_000)
    await h.drainJobs()
    assert.equal((await status(c.id)).status, 'open')
  })

  it('updateConversation with status snoozed and snoozed_until is woken the same way', async () => {
    const c = await createConversation(h, {})
    const r = await h.request({ method: 'PATCH', url: `/v2/inbox/conversations/${c.id}`, payload: { status: 'snoozed', snoozed_until: inHours(1) } })
    assert.equal(r.statusCode, 200, r.body)
    clock.advance(3600_000 + 1000)
    await h.drainJobs()
    assert.equal((await status(c.id)).status, 'open')
  })

  it('answers 422 for a past or far time, 409 for a resolved conversation, 404 across workspaces', async () => {
    const c = await createConversation(h, {})
    for (const until of [inHours(-1), inHours(24 * 400), 'tomorrow']) {
      const r = await snooze(c.id, until)
      assertProblem(r, 422, 'validation_failed')
      assert.equal(json(r).errors[0].pointer, '/body/until')
    }
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/resolve` })
    assertProblem(await snooze(c.id, inHours(1)), 409, 'invalid_status_transition')
    assertProblem(await snooze(c.id, inHours(1), h.b.live), 404, 'resource_not_found')
  })

  it('requires a key with messages:write', async () => {
    const c = await createConversation(h, {})
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${c.id}/snooze`, payload: { until: inHours(1) } })
  })
})
