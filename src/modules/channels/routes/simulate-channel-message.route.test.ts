import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, get, newChannel, ok, post } from '../channels.testkit.js'

const messagesOf = async (h: TestApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data

describe('simulateChannelMessage (the simulated provider, offline)', () => {
  let h: TestApp
  let c: any
  before(async () => {
    h = await createTestApp()
    c = await newChannel(h, { phone_number: '+14155550120' })
  })
  after(() => h.close())

  it('a customer’s message opens a conversation on the channel; the next one continues it; an agent’s reply is sent and delivered', async () => {
    const first = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550160', body: 'Do you deliver on Sundays?', media_urls: ['https://example.com/a.jpg'] }))
    assert.equal(first.duplicate, false)
    const conv = await ok(get(h, `/inbox/conversations/${first.conversation_id}`))
    assert.equal(conv.channel, 'sms')
    assert.equal(conv.contact.phone, '+14155550160')
    const second = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550160', body: 'And on holidays?' }))
    assert.equal(second.conversation_id, first.conversation_id)
    const reply = await ok(post(h, `/inbox/conversations/${first.conversation_id}/messages`, { content: 'Yes, from 9 to 18.' }), 201)
    assert.equal(reply.delivery, null, 'the created event and answer come before the channel writes its state')
    await h.drainJobs()
    const msgs = await messagesOf(h, first.conversation_id)
    assert.deepEqual(
      msgs.map((m: any) => [m.direction, m.content]),
      [
        ['inbound', 'Do you deliver on Sundays?'],
        ['inbound', 'And on holidays?'],
        ['outbound', 'Yes, from 9 to 18.'],
      ],
    )
    assert.deepEqual(msgs[0].attachments, [{ url: 'https://example.com/a.jpg', filename: null, content_type: null, size_bytes: null }])
    assert.equal(msgs[0].delivery, null)
    assert.equal(msgs[2].delivery.status, 'delivered')
    const row = await h.app.kernel.db.selectFrom('channel_deliveries').selectAll().where('message_id', '=', reply.id).executeTakeFirstOrThrow()
    assert.match(row.provider_sid!, /^SM[0-9a-f]{32}$/)
    assert.equal(row.attempts, 1)
    assert.ok((await events(h, 'message.updated')).some((m) => m.id === reply.id && m.delivery.status === 'delivered'))
    // A private note is never sent.
    const note = await ok(post(h, `/inbox/conversations/${first.conversation_id}/messages`, { content: 'VIP customer', private: true }), 201)
    await h.drainJobs()
    assert.equal(await h.app.kernel.db.selectFrom('channel_deliveries').select('message_id').where('message_id', '=', note.id).executeTakeFirst(), undefined)
  })

  it('the same message_sid twice is one message (a provider retry)', async () => {
    const sid = 'SM' + 'a'.repeat(32)
    const once = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550161', body: 'Hello?', message_sid: sid }))
    const again = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550161', body: 'Hello?', message_sid: sid }))
    assert.deepEqual([once.duplicate, again.duplicate], [false, true])
    assert.equal((await messagesOf(h, once.conversation_id)).length, 1)
  })

  it('a resolved conversation stays closed: the customer’s next message starts a new one', async () => {
    const a = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550162', body: 'Where is my parcel?' }))
    await ok(post(h, `/inbox/conversations/${a.conversation_id}/resolve`))
    const b = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550162', body: 'Another question' }))
    assert.notEqual(b.conversation_id, a.conversation_id)
    assert.equal((await ok(get(h, `/inbox/conversations/${a.conversation_id}`))).status, 'resolved')
    // A reply in the old conversation still reaches the customer.
    const late = await ok(post(h, `/inbox/conversations/${a.conversation_id}/messages`, { content: 'Sorry for the delay.' }), 201)
    await h.drainJobs()
    assert.equal((await messagesOf(h, a.conversation_id)).find((m: any) => m.id === late.id).delivery.status, 'delivered')
  })

  it('STOP opts the customer out: replies fail with opted_out until START', async () => {
    const s = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550163', body: ' stop ' }))
    const refused = await ok(post(h, `/inbox/conversations/${s.conversation_id}/messages`, { content: 'We will miss you' }), 201)
    await h.drainJobs()
    const m1 = (await messagesOf(h, s.conversation_id)).find((m: any) => m.id === refused.id)
    assert.deepEqual([m1.delivery.status, m1.delivery.error_code], ['failed', 'opted_out'])
    assert.equal(
      await h.app.kernel.db
        .selectFrom('channel_deliveries')
        .select('provider_sid')
        .where('message_id', '=', refused.id)
        .executeTakeFirstOrThrow()
        .then((r) => r.provider_sid),
      null,
      'never sent',
    )
    await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550163', body: 'START' }))
    const allowed = await ok(post(h, `/inbox/conversations/${s.conversation_id}/messages`, { content: 'Welcome back' }), 201)
    await h.drainJobs()
    assert.equal((await messagesOf(h, s.conversation_id)).find((m: any) => m.id === allowed.id).delivery.status, 'delivered')
    // "Stop sending me ads" is a sentence, not the keyword.
    const chatty = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550164', body: 'Stop sending me ads please' }))
    const ok2 = await ok(post(h, `/inbox/conversations/${chatty.conversation_id}/messages`, { content: 'Noted!' }), 201)
    await h.drainJobs()
    assert.equal((await messagesOf(h, chatty.conversation_id)).find((m: any) => m.id === ok2.id).delivery.status, 'delivered')
  })

  it('bad input: 422; a Twilio channel 409 channel_not_simulated; another workspace’s channel 404', async () => {
    assertProblem(await post(h, `/channels/${c.id}/simulated-messages`, { from: 'me', body: 'x' }), 422, 'validation_failed')
    assertProblem(await post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550165', body: 'x', message_sid: 'nope' }), 422, 'validation_failed')
    const tw = await newChannel(h, { provider: 'twilio', credentials: { account_sid: 'AC' + '1'.repeat(32), auth_token: 'x'.repeat(32) } })
    assertProblem(await post(h, `/channels/${tw.id}/simulated-messages`, { from: '+14155550165', body: 'x' }), 409, 'channel_not_simulated')
    const theirs = await newChannel(h, {}, h.b.live)
    assertProblem(await post(h, `/channels/${theirs.id}/simulated-messages`, { from: '+14155550165', body: 'x' }), 404, 'resource_not_found')
  })
})
