import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../test/helpers.js'
import { events, get, newChannel, ok, post } from './channels.testkit.js'

const messagesOf = async (h: TestApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data

describe('the channel’s bot answers customers first and hands off by its rules', () => {
  let h: TestApp
  let channel: any
  let bot: any
  before(async () => {
    h = await createTestApp()
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
    await ok(
      post(h, `/knowledge/bases/${kb.id}/documents`, {
        title: 'Shipping times',
        text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
      }),
      202,
    )
    await h.drainJobs()
    await ok(post(h, '/inbox/tags', { name: 'needs-human' }), 201)
    bot = await ok(post(h, '/bots', { name: 'Shop bot', knowledge_base_ids: [kb.id], channels: ['sms'], handoff: { action: 'tag', tag: 'needs-human' } }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    channel = await newChannel(h, { phone_number: '+14155550180', bot_id: bot.id })
  })
  after(() => h.close())

  it('answers from its knowledge, sent through the channel; hands off what it cannot answer and then stays quiet', async () => {
    const asked = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550181', body: 'How long does delivery take to France?' }))
    await h.drainJobs()
    let msgs = await messagesOf(h, asked.conversation_id)
    assert.equal(msgs.length, 2, JSON.stringify(msgs))
    const answer = msgs[1]
    assert.deepEqual([answer.direction, answer.author.type, answer.author.id], ['outbound', 'bot', bot.id])
    assert.match(answer.content, /working days/)
    assert.doesNotMatch(answer.content, /\[1\]/, 'rendered for SMS')
    assert.equal(answer.delivery.status, 'delivered', 'sent through the channel')

    // Run the jobs again: still one answer.
    await h.drainJobs()
    assert.equal((await messagesOf(h, asked.conversation_id)).length, 2)

    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550181', body: 'Can you write me a poem about pirates?' }))
    await h.drainJobs()
    msgs = await messagesOf(h, asked.conversation_id)
    assert.equal(msgs.length, 4)
    assert.equal(msgs[3].author.type, 'bot', 'the fallback message')
    const conv = await ok(get(h, `/inbox/conversations/${asked.conversation_id}`))
    assert.deepEqual(conv.tags, ['needs-human'])
    // Each answer is recorded as sendBotMessage's are, and the hand-off is an event.
    const records = await h.app.kernel.db.selectFrom('bot_replies').selectAll().where('conversation_id', '=', asked.conversation_id).orderBy('created_at').execute()
    assert.deepEqual(
      records.map((r) => [r.message_id, r.inbound_message_id, r.grounded, r.handoff === null]),
      [
        [answer.id, msgs[0].id, 1, true],
        [msgs[3].id, msgs[2].id, 0, false],
      ],
    )
    const handoffs = (await events(h, 'bot.handoff')).filter((e) => e.conversation_id === asked.conversation_id)
    assert.deepEqual(
      handoffs.map((e) => [e.id, e.bot_id]),
      [[records[1].id, bot.id]],
    )

    // Handed off: the next message waits for a person.
    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550181', body: 'Hello? How long does delivery take?' }))
    await h.drainJobs()
    assert.equal((await messagesOf(h, asked.conversation_id)).length, 5)
  })

  it('STOP gets no bot answer; a channel without a bot writes only the customer’s message', async () => {
    const stop = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550182', body: 'STOP' }))
    await h.drainJobs()
    assert.equal((await messagesOf(h, stop.conversation_id)).length, 1)
    const quiet = await newChannel(h, { phone_number: '+14155550183' })
    const m = await ok(post(h, `/channels/${quiet.id}/simulated-messages`, { from: '+14155550182', body: 'How long does delivery take to France?' }))
    await h.drainJobs()
    assert.equal((await messagesOf(h, m.conversation_id)).length, 1)
  })
})
