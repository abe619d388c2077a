import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { json } from '../../../../test/helpers.js'
import { assertProblem, events, get, leadsApp, newLead, ok, patch, post } from '../leads.testkit.js'

describe('createLead, getLead, updateLead, deleteLead, listLeads', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('creates a lead with a normalised phone and an explainable score; one lead per email', async () => {
    const lead = await ok(
      post(h, '/leads', {
        name: 'Grace Hopper',
        email: 'Grace@Navy.example',
        phone: '+1 (202) 555-0143',
        company: 'US Navy',
        title: 'Director of Engineering',
        properties: { plan: 'enterprise', seats: 40 },
        tags: ['inbound'],
      }),
      201,
    )
    assert.match(lead.id, /^lead_/)
    assert.equal(lead.email, 'grace@navy.example')
    assert.equal(lead.phone, '+12025550143')
    assert.equal(lead.status, 'new')
    assert.equal(lead.source, 'api')
    assert.deepEqual(lead.score.factors, ['+20 gave an email address', '+10 gave a phone number', '+10 company given (US Navy)', '+10 title is a decision maker (Director of Engineering)'])
    assert.equal(lead.score.score, 50)
    assert.deepEqual(lead.crm, { provider: null, external_id: null, last_synced_at: null, sync_status: 'never', last_error: null })
    const dup = await post(h, '/leads', { email: 'GRACE@navy.example' })
    assertProblem(dup, 409, 'lead_already_exists')
    assert.equal(json(dup).existing_id, lead.id)
    assert.deepEqual(await ok(get(h, `/leads/${lead.id}`)), lead)
    assert.equal((await events(h, 'lead.created')).filter((e) => e.id === lead.id).length, 1)
  })

  it('creates from a conversation: its contact fills the fields and its score and messages count', async () => {
    const conv = await ok(
      post(h, '/inbox/conversations', {
        channel: 'api',
        contact: { name: 'Linus', email: 'linus@kernel.example' },
        message: { content: 'How much is the enterprise plan? We have a budget of $20k and need it by next month.' },
      }),
      201,
    )
    const lead = await ok(post(h, '/leads', { source_id: conv.id, company: 'Kernel Inc' }), 201)
    assert.equal(lead.source, 'conversation')
    assert.equal(lead.name, 'Linus')
    assert.equal(lead.email, 'linus@kernel.example')
    assert.ok(
      lead.score.factors.some((f: string) => f.endsWith('(conversation)')),
      JSON.stringify(lead.score),
    )
    assert.ok(lead.score.factors.includes('+10 mentioned a budget or an amount'))
    assert.ok(lead.score.factors.includes('+10 mentioned a timeline'))
    const unknownSource = await post(h, '/leads', { source_id: 'conv_00000000000000000000000000' })
    assertProblem(unknownSource, 422, 'invalid_reference')
    assert.deepEqual(
      json(unknownSource).errors.map((e: any) => e.pointer),
      ['/body/source_id'],
    )
  })

  it('updates (score recomputed), filters the list, deletes with the activities', async () => {
    const lead = await newLead(h, { company: null })
    const updated = await ok(patch(h, `/leads/${lead.id}`, { company: 'Babbage & Co', title: 'CEO', phone: '+44 20 7946 0958' }))
    assert.equal(updated.phone, '+442079460958')
    assert.ok(updated.score.score > lead.score.score)
    assert.ok(updated.score.factors.includes('+15 title is executive (CEO)'))
    const byEmail = await ok(get(h, `/leads?email=${encodeURIComponent(lead.email.toUpperCase())}`))
    assert.deepEqual(
      byEmail.data.map((l: any) => l.id),
      [lead.id],
    )
    const high = await ok(get(h, `/leads?min_score=${updated.score.score}&source=api`))
    assert.ok(high.data.some((l: any) => l.id === lead.id) && high.data.every((l: any) => l.score.score >= updated.score.score))
    const since = await ok(get(h, `/leads?updated_after=${encodeURIComponent(lead.updated_at)}&status=new`))
    assert.ok(since.data.some((l: any) => l.id === lead.id))
    await ok(post(h, `/leads/${lead.id}/activities`, { type: 'note', body: 'Met at the fair.' }), 201)
    const gone = await ok(h.request({ method: 'DELETE', url: `/v2/leads/${lead.id}` }))
    assert.deepEqual(gone, { id: lead.id, object: 'lead', deleted: true })
    assertProblem(await get(h, `/leads/${lead.id}`), 404)
    const left = await h.app.kernel.db.selectFrom('lead_activities').select('id').where('lead_id', '=', lead.id).execute()
    assert.equal(left.length, 0)
    assert.ok((await events(h, 'lead.deleted')).some((e) => e.id === lead.id))
  })

  it('refuses bad input with pointers and hides other workspaces', async () => {
    const bad = async (payload: unknown, pointer: string) => {
      const r = await post(h, '/leads', payload)
      assertProblem(r, 422)
      assert.ok(
        json(r).errors.some((e: any) => e.pointer === pointer),
        r.body,
      )
    }
    await bad({ email: 'not-an-email' }, '/body/email')
    await bad({ phone: '12' }, '/body/phone')
    await bad({ phone: 'call me maybe' }, '/body/phone')
    await bad({ owner_id: 'mem_00000000000000000000000000' }, '/body/owner_id')
    await bad({ source: 'fax' }, '/body/source')
    await bad({ properties: { 'Bad Key': 1 } }, '/body/properties/Bad Key')
    const lead = await newLead(h)
    assertProblem(await get(h, `/leads/${lead.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await patch(h, `/leads/${lead.id}`, { name: 'x' }, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/leads/${lead.id}`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await get(h, '/leads?min_score=101'), 422)
  })

  it('a conversation whose score reaches lead_auto_create_score gets its lead, once', async () => {
    const ws = await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { lead_auto_create_score: 40 }))
    assert.equal(ws.lead_auto_create_score, 40)
    const conv = await ok(post(h, '/inbox/conversations', { channel: 'api', contact: { name: 'Kim', email: 'kim@buyer.example' }, message: { content: 'Hello there' } }), 201)
    const findLead = async () => (await ok(get(h, '/leads?source=conversation&limit=100'))).data.find((l: any) => l.source_id === conv.id)
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(await findLead(), undefined, 'below the threshold: no lead')
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'How much does the enterprise plan cost?', direction: 'inbound' }), 201)
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'We want to buy it this week.', direction: 'inbound' }), 201)
    const deadline = Date.now() + 10_000
    let lead = await findLead()
    while (!lead && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
      lead = await findLead()
    }
    assert.ok(lead, 'the lead was created')
    assert.equal(lead.email, 'kim@buyer.example')
    assert.ok(lead.score.score >= 40)
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'Any discount for a demo?', direction: 'inbound' }), 201)
    await new Promise((r) => setTimeout(r, 500))
    const all = (await ok(get(h, '/leads?source=conversation&limit=100'))).data.filter((l: any) => l.source_id === conv.id)
    assert.equal(all.length, 1)
    const dup = await post(h, '/leads', { source_id: conv.id })
    assertProblem(dup, 409, 'lead_already_exists')
    assert.equal(json(dup).existing_id, lead.id)
    await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { lead_auto_create_score: null }))
  })
})
