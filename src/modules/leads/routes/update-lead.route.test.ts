import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { json } from '../../../../test/helpers.js'
import { assertProblem, events, get, leadsApp, newLead, ok, patch } from '../leads.testkit.js'

describe('updateLead (PATCH /leads/{id})', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('changes what is given, normalises the phone and recomputes the score', async () => {
    const lead = await newLead(h, { name: 'Mary', company: null })
    assert.equal(lead.score.score, 20)
    const updated = await ok(patch(h, `/leads/${lead.id}`, { company: 'Analytical Engines', title: 'CEO', phone: '+44 20 7946 0958' }))
    assert.equal(updated.name, 'Mary', 'fields not sent are kept')
    assert.equal(updated.email, lead.email)
    assert.equal(updated.company, 'Analytical Engines')
    assert.equal(updated.phone, '+442079460958')
    assert.deepEqual(updated.score.factors, ['+20 gave an email address', '+10 gave a phone number', '+10 company given (Analytical Engines)', '+15 title is executive (CEO)'])
    assert.equal(updated.score.score, 55)
    assert.equal(updated.status, 'new')
    assert.deepEqual(await ok(get(h, `/leads/${lead.id}`)), updated)
    assert.ok((await events(h, 'lead.updated')).some((e) => e.id === lead.id && e.company === 'Analytical Engines'))
  })

  it('refuses the status (it has its own operation), a taken email (409), bad fields (422 with pointers)', async () => {
    const lead = await newLead(h)
    const other = await newLead(h)
    assertProblem(await patch(h, `/leads/${lead.id}`, { status: 'won' }), 422, 'validation_failed')
    const taken = await patch(h, `/leads/${lead.id}`, { email: other.email.toUpperCase() })
    assertProblem(taken, 409, 'lead_already_exists')
    assert.equal(json(taken).existing_id, other.id)
    const bad = await patch(h, `/leads/${lead.id}`, { phone: 'call me maybe' })
    assertProblem(bad, 422)
    assert.ok(
      json(bad).errors.some((e: any) => e.pointer === '/body/phone'),
      bad.body,
    )
    const owner = await patch(h, `/leads/${lead.id}`, { owner_id: 'mem_00000000000000000000000000' })
    assertProblem(owner, 422, 'invalid_reference')
    assertProblem(await patch(h, `/leads/${lead.id}`, {}), 422, 'validation_failed')
    assert.deepEqual(await ok(get(h, `/leads/${lead.id}`)), lead, 'refused updates changed nothing')
  })

  it("another workspace's lead is 404 and unchanged; leads:write is required", async () => {
    const lead = await newLead(h)
    assertProblem(await patch(h, `/leads/${lead.id}`, { name: 'Theirs' }, h.b.live), 404, 'resource_not_found')
    assertProblem(await patch(h, `/leads/${lead.id}`, { name: 'Read only' }, await h.key(['leads:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/leads/${lead.id}`))).name, lead.name)
  })
})
