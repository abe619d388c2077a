import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { complianceApp, events, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

// Rectification end to end: the request corrects the person's identifiers where the service holds them
// (inbox contacts, leads), leaves what people wrote and everyone else alone, and is idempotent.
describe('data-subject requests: rectification', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('corrects the subject’s contact in conversations and their lead, and nobody else’s', async () => {
    const ada = await ok(post(h, '/inbox/conversations', { contact: { name: 'Ada L', email: 'Ada@Example.com' }, message: { content: 'Hi, ada@example.com here' } }), 201)
    const adaByPhone = await ok(post(h, '/inbox/conversations', { contact: { phone: '+14155550123' } }), 201)
    const bob = await ok(post(h, '/inbox/conversations', { contact: { name: 'Bob', email: 'bob@example.com' } }), 201)
    const lead = await ok(post(h, '/leads', { name: 'Ada L', email: 'ada@example.com' }), 201)
    const bobLead = await ok(post(h, '/leads', { name: 'Bob', email: 'bob@example.com' }), 201)

    const d = await ok(
      post(h, '/compliance/dsar', {
        type: 'rectification',
        subject: { email: 'ada@example.com', phone: '+1 415 555 0123' },
        changes: { name: 'Ada Lovelace', email: 'Ada.Lovelace@example.com', phone: '+1 (415) 555-0199' },
      }),
      201,
    )
    await h.drainJobs()
    const done = await ok(get(h, `/compliance/dsar/${d.id}`))
    assert.equal(done.status, 'completed')
    const by = Object.fromEntries(done.progress.map((p: any) => [p.module, p]))
    assert.equal(by.inbox.records.rectified, 2)
    assert.equal(by.leads.records.rectified, 1)

    const c1 = await ok(get(h, `/inbox/conversations/${ada.id}`))
    assert.deepEqual([c1.contact.name, c1.contact.email, c1.contact.phone], ['Ada Lovelace', 'ada.lovelace@example.com', '+14155550199'])
    const c2 = await ok(get(h, `/inbox/conversations/${adaByPhone.id}`))
    assert.deepEqual([c2.contact.name, c2.contact.email, c2.contact.phone], ['Ada Lovelace', 'ada.lovelace@example.com', '+14155550199'])
    const l = await ok(get(h, `/leads/${lead.id}`))
    assert.deepEqual([l.name, l.email, l.phone], ['Ada Lovelace', 'ada.lovelace@example.com', '+14155550199'])
    // What she wrote stays as written; Bob is untouched.
    const msgs = await ok(get(h, `/inbox/conversations/${ada.id}/messages`))
    assert.equal(msgs.data[0].content, 'Hi, ada@example.com here')
    assert.equal((await ok(get(h, `/inbox/conversations/${bob.id}`))).contact.name, 'Bob')
    assert.equal((await ok(get(h, `/leads/${bobLead.id}`))).email, 'bob@example.com')
    assert.ok((await events(h, 'conversation.updated')).some((e) => e.id === ada.id && e.contact.name === 'Ada Lovelace'))
    assert.ok((await events(h, 'lead.updated')).some((e) => e.id === lead.id && e.email === 'ada.lovelace@example.com'))

    // Again under the new identifiers: nothing left to change.
    const again = await ok(post(h, '/compliance/dsar', { type: 'rectification', subject: { email: 'ada.lovelace@example.com' }, changes: { name: 'Ada Lovelace' } }), 201)
    await h.drainJobs()
    const second = Object.fromEntries((await ok(get(h, `/compliance/dsar/${again.id}`))).progress.map((p: any) => [p.module, p]))
    assert.equal(second.inbox.records.rectified, 0)
    assert.equal(second.leads.records.rectified, 0)
  })

  it('does not give a lead an email another lead already has', async () => {
    const a = await ok(post(h, '/leads', { name: 'Cy', email: 'cy@example.com' }), 201)
    const taken = await ok(post(h, '/leads', { name: 'Cy two', email: 'cy2@example.com' }), 201)
    const d = await ok(post(h, '/compliance/dsar', { type: 'rectification', subject: { email: 'cy@example.com' }, changes: { email: 'cy2@example.com', name: 'Cyrus' } }), 201)
    await h.drainJobs()
    const l = await ok(get(h, `/leads/${a.id}`))
    assert.deepEqual([l.name, l.email], ['Cyrus', 'cy@example.com'])
    assert.equal((await ok(get(h, `/leads/${taken.id}`))).name, 'Cy two')
    assert.equal((await ok(get(h, `/compliance/dsar/${d.id}`))).status, 'completed')
  })
})
