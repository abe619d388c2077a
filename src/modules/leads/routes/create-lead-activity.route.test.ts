import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, leadsApp, newLead, ok, post } from '../leads.testkit.js'

describe('createLeadActivity (POST /leads/{id}/activities)', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('records the activity as given, and engagements count in the recomputed score', async () => {
    const lead = await newLead(h, { company: null })
    assert.equal(lead.score.score, 20)
    const a = await ok(
      post(h, `/leads/${lead.id}/activities`, { type: 'meeting', subject: 'Demo', body: 'Showed the dashboard.', occurred_at: '2026-11-20T17:00:00+02:00', data: { attendees: 3, remote: true } }),
      201,
    )
    assert.match(a.id, /^act_/)
    assert.equal(a.object, 'lead_activity')
    assert.equal(a.lead_id, lead.id)
    assert.equal(a.type, 'meeting')
    assert.equal(a.subject, 'Demo')
    assert.equal(a.body, 'Showed the dashboard.')
    assert.equal(a.occurred_at, '2026-11-20T15:00:00.000Z', 'in UTC with milliseconds, as every timestamp')
    assert.deepEqual(a.data, { attendees: 3, remote: true })
    assert.match(a.actor, /^key_/)
    const after1 = await ok(get(h, `/leads/${lead.id}`))
    assert.ok(after1.score.factors.includes('+5 1 recorded engagement (5 each, at most 15)'), JSON.stringify(after1.score))
    assert.equal(after1.score.score, 25)
    for (const type of ['note', 'email', 'call', 'task']) await ok(post(h, `/leads/${lead.id}/activities`, { type }), 201)
    const capped = await ok(get(h, `/leads/${lead.id}`))
    assert.equal(capped.score.score, 35, 'engagements count at most 15')
    // A leap second is valid RFC 3339 that Date cannot read: refused with the other format errors, never a 500.
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note', occurred_at: '2016-12-31T23:59:60Z' }), 422, 'validation_failed')
  })

  it('refuses types the service records itself and bad fields (422); another workspace is 404; leads:write is required', async () => {
    const lead = await newLead(h)
    for (const type of ['status_change', 'qualification', 'sync', 'fax']) assertProblem(await post(h, `/leads/${lead.id}/activities`, { type }), 422, 'validation_failed')
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note', subject: '' }), 422, 'validation_failed')
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note', occurred_at: 'last week' }), 422, 'validation_failed')
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note', data: { nested: { no: 1 } } }), 422, 'validation_failed')
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note' }, { key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await post(h, '/leads/lead_00000000000000000000000000/activities', { type: 'note' }), 404, 'resource_not_found')
    assertProblem(await post(h, `/leads/${lead.id}/activities`, { type: 'note' }, { key: await h.key(['leads:read']) }), 403, 'insufficient_scope')
    assert.deepEqual((await ok(get(h, `/leads/${lead.id}/activities`))).data, [], 'nothing was recorded')
  })
})
