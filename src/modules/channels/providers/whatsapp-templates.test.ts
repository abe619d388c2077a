import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, channelsApp, type ChannelsApp, get, newChannel, ok, patch, post, startTwilioMessaging, type TwilioMessaging } from '../channels.testkit.js'

const SERVICE = `MG${'ab'.repeat(16)}`
const TEMPLATE = `HX${'cd'.repeat(16)}`
const HOUR = 60 * 60_000

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
async function conversationOf(h: ChannelsApp, sid: string): Promise<string> {
  const r = await h.app.kernel.db.selectFrom('channel_receipts').select('message_id').where('provider_sid', '=', sid).executeTakeFirstOrThrow()
  return (await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', r.message_id).executeTakeFirstOrThrow()).conversation_id
}
const sends = (tw: TwilioMessaging) => tw.requests.filter((r) => r.path.endsWith('/Messages.json'))

describe('WhatsApp templates outside the 24-hour window, and Twilio Messaging Services as the sender', () => {
  let h: ChannelsApp
  let tw: TwilioMessaging
  before(async () => {
    tw = await startTwilioMessaging()
    h = await channelsApp()
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('a free-form reply more than 24 hours after the customer wrote is refused (422, nothing written or sent) until the channel names a template', async () => {
    const wa = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550150', provider: 'twilio', credentials: tw.credentials })
    assert.deepEqual(wa.whatsapp, { template: null })
    const inbound = await tw.inbound(wa.webhooks.messages_url, { from: '+14155550190', to: wa.phone_number, body: 'Is my order shipped?', whatsapp: true })
    const conv = await conversationOf(h, inbound.sid)

    h.clock.advance(23 * HOUR)
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Checking now.' }), 201)
    await h.drainJobs()
    assert.equal(sends(tw).at(-1)!.form.get('Body'), 'Checking now.', 'inside the window: free-form')

    h.clock.advance(2 * HOUR)
    const count = (await messagesOf(h, conv)).length
    const refused = await post(h, `/inbox/conversations/${conv}/messages`, { content: 'It shipped today.' })
    assertProblem(refused, 422, 'whatsapp_window_closed')
    assert.match(JSON.parse(refused.body).detail, /24 hours/)
    assert.equal((await messagesOf(h, conv)).length, count, 'the refused message was not written')
    // A private note is never sent, so the window does not matter.
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Customer is waiting', private: true }), 201)

    const withTemplate = await ok(patch(h, `/channels/${wa.id}`, { whatsapp: { template: { content_sid: TEMPLATE, variables: { '1': '{message}', '2': '{channel}' } } } }))
    assert.deepEqual(withTemplate.whatsapp, { template: { content_sid: TEMPLATE, variables: { '1': '{message}', '2': '{channel}' } } })
    const before = sends(tw).length
    const reply = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'It shipped today.' }), 201)
    await h.drainJobs()
    assert.equal(sends(tw).length, before + 1)
    const form = sends(tw).at(-1)!.form
    assert.deepEqual(
      { to: form.get('To'), from: form.get('From'), body: form.get('Body'), content: form.get('ContentSid'), vars: JSON.parse(form.get('ContentVariables')!) },
      { to: 'whatsapp:+14155550190', from: `whatsapp:${wa.phone_number}`, body: null, content: TEMPLATE, vars: { '1': 'It shipped today.', '2': wa.name } },
    )
    const m = (await messagesOf(h, conv)).find((x: any) => x.id === reply.id)
    assert.deepEqual([m.content, m.delivery.status], ['It shipped today.', 'queued'])

    // The customer answers: the window opens again, replies are free-form.
    await tw.inbound(wa.webhooks.messages_url, { from: '+14155550190', to: wa.phone_number, body: 'Thanks!', whatsapp: true })
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'You are welcome.' }), 201)
    await h.drainJobs()
    assert.deepEqual([sends(tw).at(-1)!.form.get('Body'), sends(tw).at(-1)!.form.get('ContentSid')], ['You are welcome.', null])

    // Removing the template brings the refusal back once the window closes.
    assert.equal((await ok(patch(h, `/channels/${wa.id}`, { whatsapp: { template: null } }))).whatsapp.template, null)
    h.clock.advance(25 * HOUR)
    assertProblem(await post(h, `/inbox/conversations/${conv}/messages`, { content: 'Anything else?' }), 422, 'whatsapp_window_closed')
  })

  it('refuses template settings that are not a WhatsApp channel’s or not a Content SID; SMS has no window', async () => {
    const bad = await post(h, '/channels', {
      type: 'whatsapp',
      name: 'WA',
      phone_number: '+14155550151',
      provider: 'twilio',
      credentials: tw.credentials,
      whatsapp: { template: { content_sid: 'SM123' } },
    })
    assertProblem(bad, 422)
    const sms = await newChannel(h, { phone_number: '+14155550152', provider: 'twilio', credentials: tw.credentials })
    assert.equal(sms.whatsapp, null)
    const r = await patch(h, `/channels/${sms.id}`, { whatsapp: { template: { content_sid: TEMPLATE } } })
    assertProblem(r, 422)
    assert.equal(JSON.parse(r.body).errors[0].pointer, '/body/whatsapp')
    const inbound = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550191', to: sms.phone_number, body: 'Hi' })
    const conv = await conversationOf(h, inbound.sid)
    h.clock.advance(48 * HOUR)
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Two days later' }), 201)
    // Sent now: left queued, it went out in the next test's drain, at times after that test's own send (PostgreSQL
    // claims due jobs in no set order), and that test read the wrong message as the last one sent.
    await h.drainJobs()
    assert.equal(sends(tw).at(-1)!.form.get('Body'), 'Two days later', 'SMS has no 24-hour window')
  })

  it('sends through a Messaging Service (MessagingServiceSid, no From) when the channel names one; kept on edits, null removes it', async () => {
    const wa = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550153', provider: 'twilio', credentials: { ...tw.credentials, messaging_service_sid: SERVICE } })
    assert.equal(wa.credentials.messaging_service_sid, SERVICE)
    const inbound = await tw.inbound(wa.webhooks.messages_url, { from: '+14155550192', to: wa.phone_number, body: 'Hello', whatsapp: true })
    const conv = await conversationOf(h, inbound.sid)
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Hi there' }), 201)
    await h.drainJobs()
    const form = sends(tw).at(-1)!.form
    assert.deepEqual([form.get('MessagingServiceSid'), form.get('From'), form.get('To'), form.get('Body')], [SERVICE, null, 'whatsapp:+14155550192', 'Hi there'])
    assert.equal([...tw.messages.values()].at(-1)!.messaging_service_sid, SERVICE)

    // The token and the service are kept when an edit leaves them out for the same account.
    const renamed = await ok(patch(h, `/channels/${wa.id}`, { credentials: { account_sid: tw.accountSid } }))
    assert.equal(renamed.credentials.messaging_service_sid, SERVICE)
    const cleared = await ok(patch(h, `/channels/${wa.id}`, { credentials: { account_sid: tw.accountSid, messaging_service_sid: null } }))
    assert.equal(cleared.credentials.messaging_service_sid, null)
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'From the number now' }), 201)
    await h.drainJobs()
    assert.deepEqual([sends(tw).at(-1)!.form.get('MessagingServiceSid'), sends(tw).at(-1)!.form.get('From')], [null, `whatsapp:${wa.phone_number}`])

    assertProblem(await post(h, '/channels', { type: 'sms', name: 'S', phone_number: '+14155550154', provider: 'twilio', credentials: { ...tw.credentials, messaging_service_sid: 'MG123' } }), 422)
    // The simulated provider has no Twilio account, hence no Messaging Service.
    assertProblem(
      await post(h, '/channels', { type: 'sms', name: 'S', phone_number: '+14155550155', credentials: { account_sid: tw.accountSid, messaging_service_sid: SERVICE }, provider: 'simulated' }),
      422,
    )
  })
})
