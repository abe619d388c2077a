import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, createTag, eventsFor } from '../inbox.testkit.js'

describe('createConversation (POST /inbox/conversations)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('creates an open api-channel conversation from an empty body and emits conversation.created', async () => {
    const r = await h.request({ method: 'POST', url: '/v2/inbox/conversations' })
    assert.equal(r.statusCode, 201, r.body)
    const c = json(r)
    assert.match(c.id, /^conv_[0-9A-Z]{26}$/)
    assert.equal(c.status, 'open')
    assert.equal(c.channel, 'api')
    assert.deepEqual(c.contact, { name: null, email: null, phone: null, external_id: null })
    assert.deepEqual(c.lead_score, { score: 0, factors: [] })
    const events = await eventsFor(h, 'conversation.created', c.id)
    assert.deepEqual(events, [c])
  })

  it('takes contact, subject, tags, assignee, metadata and a first inbound message in one transaction', async () => {
    await createTag(h, 'Sales')
    const owner = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` })).data[0]
    const c = await createConversation(h, {
      channel: 'chat',
      subject: 'Pro plan',
      contact: { name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '+4915112345678', external_id: 'crm-1' },
      tags: ['sales'],
      assignee_id: owner.id,
      metadata: { source: 'widget' },
      message: { content: 'What does the Pro plan cost?' },
    })
    assert.equal(c.contact.email, 'ada@example.com')
    assert.deepEqual(c.tags, ['Sales'])
    assert.equal(c.assignee_id, owner.id)
    assert.ok(c.last_message_at)
    assert.ok(
      c.lead_score.factors.some((f: string) => f.includes('pricing')),
      JSON.stringify(c.lead_score),
    )
    const msgs = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${c.id}/messages` }))
    assert.equal(msgs.data.length, 1)
    assert.equal(msgs.data[0].direction, 'inbound')
    assert.equal(msgs.data[0].author.type, 'contact')
  })

  it('rejects invalid contact details, channels and unknown fields with 422 and pointers', async () => {
    for (const [payload, pointer] of [
      [{ contact: { email: 'not-an-email' } }, '/body/contact/email'],
      [{ contact: { phone: '0151 123' } }, '/body/contact/phone'],
      [{ channel: 'fax' }, '/body/channel'],
      [{ status: 'resolved' }, '/body/status'],
      [{ colour: 'red' }, '/body/colour'],
      [{ metadata: { k: 1 } }, '/body/metadata/k'],
      [{ message: { content: '' } }, '/body/message/content'],
    ] as const) {
      const r = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload })
      assertProblem(r, 422, 'validation_failed')
      assert.ok(
        json(r).errors.some((e: { pointer: string }) => e.pointer.startsWith(pointer)),
        `${pointer}: ${r.body}`,
      )
    }
  })

  it('answers 422 for an unknown tag or a non-member assignee, and creates nothing', async () => {
    assertProblem(await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { tags: ['nope'] } }), 422, 'unknown_tag')
    assertProblem(await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { assignee_id: 'mem_01JD0000000000000000000000' } }), 422, 'assignee_not_member')
  })

  it('creates one conversation for a repeated Idempotency-Key', async () => {
    const headers = { 'idempotency-key': 'create-conv-1' }
    const first = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { subject: 'once' }, headers })
    const second = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { subject: 'once' }, headers })
    assert.equal(second.statusCode, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.equal(json(second).id, json(first).id)
  })

  it('requires a key with messages:write', async () => {
    await assertAuthRequired(h, { method: 'POST', url: '/v2/inbox/conversations', payload: {} })
  })
})
