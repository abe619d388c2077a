import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { events, get, leadsApp, newLead, ok, post } from '../leads.testkit.js'

describe('qualifyLead and lead activities', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('evaluates BANT from the conversation: each criterion met points at the message that shows it', async () => {
    const conv = await ok(post(h, '/inbox/conversations', { channel: 'api', contact: { email: 'cto@startup.example' }, message: { content: 'Hi, I am the CTO and I decide on tooling.' } }), 201)
    const budget = await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'We have a budget of €15k for this.', direction: 'inbound' }), 201)
    const need = await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'We need to replace our ticketing tool, support is struggling.', direction: 'inbound' }), 201)
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'Thanks, I will send the pricing.' }), 201)
    const lead = await ok(post(h, '/leads', { source_id: conv.id, title: 'CTO' }), 201)
    const q = await ok(post(h, `/leads/${lead.id}/qualify`, {}))
    const c = Object.fromEntries(q.qualification.criteria.map((x: any) => [x.name, x]))
    assert.equal(c.budget.met, true)
    assert.equal(c.budget.evidence[0].message_id, budget.id)
    assert.equal(c.budget.evidence[0].conversation_id, conv.id)
    assert.equal(c.need.evidence[0].message_id, need.id)
    assert.equal(c.authority.met, true)
    assert.equal(c.authority.evidence[0].message_id, conv.last_message?.id ?? c.authority.evidence[0].message_id)
    assert.ok(c.authority.evidence.some((e: any) => e.source === 'lead' && e.excerpt === 'title: CTO'))
    assert.equal(c.timeline.met, false)
    assert.equal(q.qualification.score, 75)
    assert.equal(q.qualification.recommended_status, 'qualified')
    assert.equal(q.qualification.applied, false)
    assert.equal(q.status, 'new')

    // An answer from the salesperson completes it, and `apply` moves the lead.
    const applied = await ok(post(h, `/leads/${lead.id}/qualify`, { answers: { timeline: 'Go-live in March' }, apply: true }))
    assert.equal(applied.status, 'qualified')
    assert.equal(applied.qualification.score, 100)
    assert.equal(applied.qualification.applied, true)
    const acts = await ok(get(h, `/leads/${lead.id}/activities`))
    assert.deepEqual(
      acts.data.slice(0, 2).map((a: any) => a.type),
      ['status_change', 'qualification'],
    )
    assert.equal((await events(h, 'lead.qualified')).filter((e) => e.id === lead.id).length, 2)
  })

  it('with nothing to judge recommends staying new; activities page newest first and count in the score', async () => {
    const lead = await newLead(h)
    const q = await ok(post(h, `/leads/${lead.id}/qualify`, {}))
    assert.equal(q.qualification.recommended_status, 'new')
    assert.ok(q.qualification.criteria.every((c: any) => !c.met))
    const made = []
    for (const type of ['note', 'call', 'meeting']) made.push(await ok(post(h, `/leads/${lead.id}/activities`, { type, subject: `${type} 1`, body: 'text' }), 201))
    assert.match(made[0].id, /^act_/)
    const page1 = await ok(get(h, `/leads/${lead.id}/activities?limit=2`))
    assert.deepEqual(
      page1.data.map((a: any) => a.type),
      ['meeting', 'call'],
    )
    const page2 = await ok(get(h, `/leads/${lead.id}/activities?limit=2&cursor=${page1.next_cursor}`))
    assert.deepEqual(
      page2.data.map((a: any) => a.type),
      ['note', 'qualification'],
    )
    const after = await ok(get(h, `/leads/${lead.id}`))
    assert.ok(after.score.factors.includes('+15 3 recorded engagements (5 each, at most 15)'), JSON.stringify(after.score))
    const bad = await post(h, `/leads/${lead.id}/activities`, { type: 'status_change' })
    assert.equal(bad.statusCode, 422)
  })
})
