import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, json, newChannel, ok, patch, post } from '../channels.testkit.js'

const messagesOf = async (h: TestApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
const HOURS = {
  timezone: 'Europe/Berlin',
  weekly: (['fri', 'thu', 'wed', 'tue', 'mon'] as const).map((day) => ({ day, open: '09:00', close: '17:00' })),
  closed_dates: ['2026-12-25', '2026-12-24', '2026-12-25'],
  out_of_hours_reply: 'Thanks! Our team is back {next_open}.',
}

describe('business hours: the out-of-hours reply', () => {
  let h: TestApp
  // Saturday 2026-12-05, 21:00 in Berlin (UTC+1).
  const clock = new ManualClock(new Date('2026-12-05T20:00:00Z'))
  let channel: any
  before(async () => {
    h = await createTestApp({ clock })
    channel = await newChannel(h, { phone_number: '+14155550190', business_hours: HOURS })
  })
  after(() => h.close())

  it('the channel shows its schedule, stored in order and without repeats', () => {
    assert.deepEqual(
      channel.business_hours.weekly.map((w: any) => w.day),
      ['mon', 'tue', 'wed', 'thu', 'fri'],
    )
    assert.deepEqual(channel.business_hours.closed_dates, ['2026-12-24', '2026-12-25'])
    assert.equal(channel.business_hours.out_of_hours_reply, HOURS.out_of_hours_reply)
  })

  it('a customer writing while closed gets the reply once per closed period, sent through the channel', async () => {
    const first = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550191', body: 'Is my order shipped?' }))
    await h.drainJobs()
    let msgs = await messagesOf(h, first.conversation_id)
    assert.deepEqual(
      msgs.map((m: any) => [m.direction, m.content]),
      [
        ['inbound', 'Is my order shipped?'],
        ['outbound', 'Thanks! Our team is back Monday 09:00 (Europe/Berlin).'],
      ],
    )
    assert.deepEqual([msgs[1].author.type, msgs[1].author.id], ['bot', channel.id])
    assert.equal(msgs[1].delivery.status, 'delivered')

    // Again during the same night: no second reply.
    clock.advance(3 * 3600_000)
    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550191', body: 'Hello??' }))
    await h.drainJobs()
    assert.equal((await messagesOf(h, first.conversation_id)).length, 3)

    // Monday 10:00 (open): people answer, no reply.
    clock.advance(new Date('2026-12-07T09:00:00Z').getTime() - clock.now().getTime())
    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550191', body: 'Anyone there now?' }))
    await h.drainJobs()
    assert.equal((await messagesOf(h, first.conversation_id)).length, 4)

    // Monday 18:00: a new closed period, a new reply (back Tuesday).
    clock.advance(8 * 3600_000)
    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550191', body: 'Still waiting.' }))
    await h.drainJobs()
    msgs = await messagesOf(h, first.conversation_id)
    assert.equal(msgs.length, 6)
    assert.equal(msgs[5].content, 'Thanks! Our team is back Tuesday 09:00 (Europe/Berlin).')
  })

  it('a provider retry of the same message writes no second reply', async () => {
    const sid = 'SM' + 'b'.repeat(32)
    const once = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550192', body: 'Hi', message_sid: sid }))
    await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550192', body: 'Hi', message_sid: sid }))
    assert.equal((await messagesOf(h, once.conversation_id)).length, 2)
  })

  it('no reply without a reply text, or once the schedule is removed', async () => {
    await ok(patch(h, `/channels/${channel.id}`, { business_hours: { ...HOURS, out_of_hours_reply: null } }))
    const a = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550193', body: 'Hello' }))
    const updated = await ok(patch(h, `/channels/${channel.id}`, { business_hours: null }))
    assert.equal(updated.business_hours, null)
    const b = await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550194', body: 'Hello' }))
    assert.equal((await messagesOf(h, a.conversation_id)).length, 1)
    assert.equal((await messagesOf(h, b.conversation_id)).length, 1)
    await ok(patch(h, `/channels/${channel.id}`, { business_hours: HOURS }))
  })

  it('refuses an unknown time zone, an interval closing before it opens, and overlapping intervals', async () => {
    const bad = async (business_hours: unknown, pointer: string) => {
      const r = await patch(h, `/channels/${channel.id}`, { business_hours })
      assertProblem(r, 422, 'validation_failed')
      assert.deepEqual(
        json(r).errors.map((e: any) => e.pointer),
        [pointer],
      )
    }
    await bad({ ...HOURS, timezone: 'Mars/Olympus' }, '/body/business_hours/timezone')
    await bad({ ...HOURS, weekly: [{ day: 'mon', open: '17:00', close: '09:00' }] }, '/body/business_hours/weekly/0')
    await bad(
      {
        ...HOURS,
        weekly: [
          { day: 'mon', open: '09:00', close: '12:00' },
          { day: 'mon', open: '11:00', close: '13:00' },
        ],
      },
      '/body/business_hours/weekly',
    )
    const schemaError = await patch(h, `/channels/${channel.id}`, { business_hours: { ...HOURS, weekly: [{ day: 'mon', open: '9am', close: '17:00' }] } })
    assert.equal(schemaError.statusCode, 422)
    assert.equal((await ok(get(h, `/channels/${channel.id}`))).business_hours.timezone, 'Europe/Berlin', 'nothing changed')
  })

  it('while the bot answers, it alone replies; when it hands off out of hours, the customer learns when people are back', async () => {
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
    await ok(
      post(h, `/knowledge/bases/${kb.id}/documents`, {
        title: 'Shipping times',
        text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
      }),
      202,
    )
    await h.drainJobs()
    const bot = await ok(post(h, '/bots', { name: 'Shop bot', knowledge_base_ids: [kb.id], channels: ['sms'] }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const withBot = await newChannel(h, { phone_number: '+14155550195', bot_id: bot.id, business_hours: HOURS })
    // Monday 2026-12-07 18:00 Berlin: closed.
    const asked = await ok(post(h, `/channels/${withBot.id}/simulated-messages`, { from: '+14155550196', body: 'How long does delivery take to France?' }))
    await h.drainJobs()
    let msgs = await messagesOf(h, asked.conversation_id)
    assert.deepEqual(
      msgs.map((m: any) => m.author.id ?? m.author.type),
      ['contact', bot.id],
      JSON.stringify(msgs),
    )
    await ok(post(h, `/channels/${withBot.id}/simulated-messages`, { from: '+14155550196', body: 'Can you write me a poem about pirates?' }))
    await h.drainJobs()
    msgs = await messagesOf(h, asked.conversation_id)
    assert.deepEqual(
      msgs.slice(2).map((m: any) => m.author.id ?? m.author.type),
      ['contact', bot.id, withBot.id],
      JSON.stringify(msgs),
    )
    assert.match(msgs[4].content, /back Tuesday 09:00/)
  })
})
