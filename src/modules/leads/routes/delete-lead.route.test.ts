import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, get, leadsApp, newLead, ok, post } from '../leads.testkit.js'

const del = (h: TestApp, id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/leads/${id}`, ...(key ? { key } : {}) })

describe('deleteLead (DELETE /leads/{id})', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('removes the lead and its activities, and says so once', async () => {
    const lead = await newLead(h)
    const keep = await newLead(h)
    await ok(post(h, `/leads/${lead.id}/activities`, { type: 'call', subject: 'Intro call' }), 201)
    await ok(post(h, `/leads/${keep.id}/activities`, { type: 'note', body: 'Stays' }), 201)
    assert.deepEqual(await ok(del(h, lead.id)), { id: lead.id, object: 'lead', deleted: true })
    assertProblem(await get(h, `/leads/${lead.id}`), 404, 'resource_not_found')
    assertProblem(await get(h, `/leads/${lead.id}/activities`), 404, 'resource_not_found')
    const rows = await h.app.kernel.db.selectFrom('lead_activities').select('lead_id').where('lead_id', 'in', [lead.id, keep.id]).execute()
    assert.deepEqual(
      rows.map((r) => r.lead_id),
      [keep.id],
      "only the deleted lead's activities went",
    )
    assert.equal((await events(h, 'lead.deleted')).filter((e) => e.id === lead.id).length, 1)
    assertProblem(await del(h, lead.id), 404, 'resource_not_found')
    // Its email is free again.
    await ok(post(h, '/leads', { email: lead.email }), 201)
  })

  it("another workspace's lead is 404 and stays; leads:write is required; an over-long id is 422", async () => {
    const lead = await newLead(h)
    assertProblem(await del(h, lead.id, h.b.live), 404, 'resource_not_found')
    assertProblem(await del(h, lead.id, await h.key(['leads:read'])), 403, 'insufficient_scope')
    assertProblem(await del(h, 'l'.repeat(65)), 422, 'validation_failed')
    assert.equal((await ok(get(h, `/leads/${lead.id}`))).id, lead.id)
  })
})
