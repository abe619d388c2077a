import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, leadsApp, newLead, ok, post } from '../leads.testkit.js'

describe('listLeadActivities (GET /leads/{id}/activities)', () => {
  let h: TestApp
  let lead: any
  const made: any[] = []
  before(async () => {
    h = await leadsApp()
    lead = await newLead(h)
    made.push(await ok(post(h, `/leads/${lead.id}/activities`, { type: 'note', subject: 'First note' }), 201))
    await ok(post(h, `/leads/${lead.id}/status`, { status: 'contacted', reason: 'Replied by e-mail' }))
    made.push(await ok(post(h, `/leads/${lead.id}/activities`, { type: 'call', subject: 'Follow-up call' }), 201))
    const other = await newLead(h)
    await ok(post(h, `/leads/${other.id}/activities`, { type: 'note', subject: 'Not this lead' }), 201)
  })
  after(() => h.close())

  it("lists the lead's activities newest first: people's and the service's own", async () => {
    const list = await ok(get(h, `/leads/${lead.id}/activities`))
    assert.equal(list.object, 'list')
    assert.deepEqual(
      list.data.map((a: any) => [a.type, a.subject]),
      [
        ['call', 'Follow-up call'],
        ['status_change', 'new → contacted'],
        ['note', 'First note'],
      ],
    )
    assert.deepEqual([list.data[1].data.from, list.data[1].data.to, list.data[1].data.reason], ['new', 'contacted', 'Replied by e-mail'])
    assert.ok(list.data.every((a: any) => a.lead_id === lead.id))
  })

  it('pages with limit and cursor', async () => {
    const first = await ok(get(h, `/leads/${lead.id}/activities?limit=2`))
    assert.deepEqual(
      first.data.map((a: any) => a.type),
      ['call', 'status_change'],
    )
    assert.equal(first.data[0].id, made[1].id)
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/leads/${lead.id}/activities?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((a: any) => a.id),
      [made[0].id],
    )
    assert.equal(rest.has_more, false)
  })

  it("another workspace's lead is 404; bad queries are 422; leads:read is required", async () => {
    assertProblem(await get(h, `/leads/${lead.id}/activities`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/leads/lead_00000000000000000000000000/activities'), 404, 'resource_not_found')
    assertProblem(await get(h, `/leads/${lead.id}/activities?limit=0`), 422, 'validation_failed')
    assertProblem(await get(h, `/leads/${lead.id}/activities?type=note`), 422, 'validation_failed')
    assertProblem(await get(h, `/leads/${lead.id}/activities?cursor=garbage`), 422, 'invalid_cursor')
    assertProblem(await get(h, `/leads/${lead.id}/activities`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
