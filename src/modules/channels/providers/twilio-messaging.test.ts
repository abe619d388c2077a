import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import twilio from 'twilio'
import { request } from 'undici'
import { channelsApp, type ChannelsApp, get, newChannel, ok, post, signedPost, startTwilioMessaging, type TwilioMessaging } from '../channels.testkit.js'

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
const conversationOf = async (h: ChannelsApp, messageId: string) =>
  (await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', messageId).executeTakeFirstOrThrow()).conversation_id
const receiptOf = async (h: ChannelsApp, sid: string) =>
  (await h.app.kernel.db.selectFrom('channel_receipts').select('message_id').where('provider_sid', '=', sid).executeTakeFirstOrThrow()).message_id

describe('SMS and WhatsApp through Twilio Messaging (a Twilio-compatible server on 127.0.0.1)', () => {
  let h: ChannelsApp
  let tw: TwilioMessaging
  let sms: any
  let wa: any
  before(async () => {
    tw = await startTwilioMessaging()
    h = await channelsApp()
    sms = await newChannel(h, { phone_number: '+14155550130', provider: 'twilio', credentials: tw.credentials })
    wa = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550131', provider: 'twilio', credentials: tw.credentials })
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('round trip: an inbound SMS lands in the inbox, the agent’s reply goes out through the REST API, status callbacks show it delivered', async () => {
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 7)])
    const inbound = await tw.inbound(sms.webhooks.messages_url, {
      from: '+14155550170',
      to: sms.phone_number,
      body: 'Is the shop open today?',
      media: [{ url: tw.addMedia(jpeg, 'image/jpeg'), type: 'image/jpeg' }],
    })
    assert.equal(inbound.status, 200)
    assert.match(inbound.contentType, /^text\/xml/)
    assert.match(inbound.body, /<Response\/>$/)
    const conv = await conversationOf(h, await receiptOf(h, inbound.sid))
    const c = await ok(get(h, `/inbox/conversations/${conv}`))
    assert.deepEqual([c.channel, c.contact.phone, c.status], ['sms', '+14155550170', 'open'])
    const [first] = await messagesOf(h, conv)
    assert.equal(first.content, 'Is the shop open today?')
    // The media is ours now (twilio-media.test.ts has the details).
    assert.deepEqual({ ...first.attachments[0], url: undefined }, { url: undefined, filename: 'media-1.jpg', content_type: 'image/jpeg', size_bytes: jpeg.length })
    assert.ok(first.attachments[0].url.startsWith(`${h.config.publicUrl}/channels/${sms.id}/twilio/media/`))

    const reply = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Yes, until 18:00.' }), 201)
    await h.drainJobs()
    const sent = tw.requests.filter((r) => r.path.endsWith('/Messages.json'))
    assert.equal(sent.length, 1)
    assert.equal(sent[0].headers.authorization, `Basic ${Buffer.from(`${tw.accountSid}:${tw.authToken}`).toString('base64')}`)
    assert.deepEqual(
      { to: sent[0].form.get('To'), from: sent[0].form.get('From'), body: sent[0].form.get('Body'), cb: sent[0].form.get('StatusCallback') },
      { to: '+14155550170', from: sms.phone_number, body: 'Yes, until 18:00.', cb: `${sms.webhooks.status_url}?message=${reply.id}` },
    )
    const twSid = [...tw.messages.values()].find((m) => m.body === 'Yes, until 18:00.')!.sid
    const delivery = async () => (await messagesOf(h, conv)).find((m: any) => m.id === reply.id).delivery
    assert.equal((await delivery()).status, 'queued')
    assert.equal(await tw.status(twSid, 'sent'), 204)
    assert.equal((await delivery()).status, 'sent')
    assert.equal(await tw.status(twSid, 'delivered'), 204)
    // A late `sent` (callbacks come in any order) does not move it back.
    assert.equal(await tw.status(twSid, 'sent'), 204)
    assert.equal((await delivery()).status, 'delivered')
    // WhatsApp (and RCS) report the customer's read receipt: the reply is read, and a late `delivered` keeps it so.
    assert.equal(await tw.status(twSid, 'read'), 204)
    assert.equal(await tw.status(twSid, 'delivered'), 204)
    assert.equal((await delivery()).status, 'read')
    // Sent once, whatever runs again.
    await h.drainJobs()
    assert.equal(tw.requests.filter((r) => r.path.endsWith('/Messages.json')).length, 1)
  })

  it('a retried webhook (same MessageSid) makes no second message; a forged or missing signature is 403 and writes nothing', async () => {
    const one = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550171', to: sms.phone_number, body: 'Hello' })
    const again = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550171', to: sms.phone_number, body: 'Hello', sid: one.sid })
    assert.deepEqual([one.status, again.status], [200, 200])
    const conv = await conversationOf(h, await receiptOf(h, one.sid))
    assert.equal((await messagesOf(h, conv)).length, 1)

    const forged = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550171', to: sms.phone_number, body: 'Forged', token: 'f'.repeat(32) })
    assert.equal(forged.status, 403)
    assert.equal(JSON.parse(forged.body).code, 'channel_signature_invalid')
    const unsigned = await request(sms.webhooks.messages_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'MessageSid=SM' + '0'.repeat(32) + '&From=%2B14155550171&Body=hi',
    })
    assert.equal(unsigned.statusCode, 403)
    assert.match(String(unsigned.headers['content-type']), /application\/problem\+json/)
    assert.ok(JSON.parse(await unsigned.body.text()).request_id)
    // An unknown channel answers exactly as a bad signature does.
    const unknown = await tw.inbound(`${h.config.publicUrl}/channels/chn_01JD0000000000000000000000/twilio/messages`, { from: '+14155550171', to: sms.phone_number, body: 'Hi' })
    assert.equal(unknown.status, 403)
    // Signed by the right token for another channel's URL: the URL is part of what is signed.
    const params = { MessageSid: 'SM' + '1'.repeat(32), From: '+14155550171', To: sms.phone_number, Body: 'moved', AccountSid: tw.accountSid }
    const moved = await request(sms.webhooks.messages_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilio.getExpectedTwilioSignature(tw.authToken, wa.webhooks.messages_url, params) },
      body: new URLSearchParams(params).toString(),
    })
    assert.equal(moved.statusCode, 403)
    assert.equal((await messagesOf(h, conv)).length, 1)
    // Signed but malformed: a clear 400.
    const bad = await signedPost(sms.webhooks.messages_url, { AccountSid: tw.accountSid, MessageSid: 'nope', From: '+14155550171', Body: 'x' }, tw.authToken)
    assert.equal(bad.status, 400)
  })

  it('STOP (Twilio’s keyword or its OptOutType) is honoured: the reply is refused without calling Twilio; START lifts it', async () => {
    const stop = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550172', to: sms.phone_number, body: 'UNSUBSCRIBE' })
    const conv = await conversationOf(h, await receiptOf(h, stop.sid))
    const before = tw.requests.length
    const refused = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Please stay!' }), 201)
    await h.drainJobs()
    assert.equal(tw.requests.length, before, 'Twilio was not asked')
    const m = (await messagesOf(h, conv)).find((x: any) => x.id === refused.id)
    assert.deepEqual([m.delivery.status, m.delivery.error_code], ['failed', 'opted_out'])
    await tw.inbound(sms.webhooks.messages_url, { from: '+14155550172', to: sms.phone_number, body: 'start', optOutType: 'START' })
    const allowed = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Welcome back' }), 201)
    await h.drainJobs()
    assert.equal((await messagesOf(h, conv)).find((x: any) => x.id === allowed.id).delivery.status, 'queued')
    assert.equal(tw.requests.length, before + 1)
    // Twilio's Advanced Opt-Out may name the keyword itself (a custom one such as "BASTA").
    const custom = await tw.inbound(sms.webhooks.messages_url, { from: '+14155550173', to: sms.phone_number, body: 'BASTA', optOutType: 'STOP' })
    const conv2 = await conversationOf(h, await receiptOf(h, custom.sid))
    const r2 = await ok(post(h, `/inbox/conversations/${conv2}/messages`, { content: 'Bye' }), 201)
    await h.drainJobs()
    assert.equal((await messagesOf(h, conv2)).find((x: any) => x.id === r2.id).delivery.error_code, 'opted_out')
  })

  it('WhatsApp uses whatsapp: addresses; Twilio’s refusal fails the message with its code; 429 is retried; undelivered shows the error', async () => {
    const inbound = await tw.inbound(wa.webhooks.messages_url, { from: '+14155550174', to: wa.phone_number, body: 'Hola', whatsapp: true })
    assert.equal(inbound.status, 200)
    const conv = await conversationOf(h, await receiptOf(h, inbound.sid))
    const c = await ok(get(h, `/inbox/conversations/${conv}`))
    assert.deepEqual([c.channel, c.contact.phone], ['whatsapp', '+14155550174'])

    tw.failNext(429)
    const retried = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Hi! How can we help?' }), 201)
    await h.drainJobs()
    const deliveryOf = async (id: string) => (await messagesOf(h, conv)).find((x: any) => x.id === id).delivery
    assert.equal((await deliveryOf(retried.id)).status, 'queued', 'waiting for its retry')
    // The retry is due 5 s later.
    h.clock.advance(6000)
    await h.drainJobs()
    const sent = [...tw.messages.values()].find((m) => m.body === 'Hi! How can we help?')
    assert.ok(sent, 'sent on the retry')
    assert.deepEqual([sent.to, sent.from], ['whatsapp:+14155550174', `whatsapp:${wa.phone_number}`])
    assert.equal(await tw.status(sent.sid, 'undelivered', { errorCode: '63016' }), 204)
    assert.deepEqual([(await deliveryOf(retried.id)).status, (await deliveryOf(retried.id)).error_code], ['undelivered', '63016'])

    tw.failNext(400, 21211)
    const refused = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Second try' }), 201)
    await h.drainJobs()
    const d = await deliveryOf(refused.id)
    assert.deepEqual([d.status, d.error_code], ['failed', '21211'])
    assert.match(d.error_message, /^Twilio 21211/)

    // A status callback signed with another token is refused and changes nothing.
    assert.equal(await tw.status(sent.sid, 'delivered', { token: 'e'.repeat(32) }), 403)
    assert.equal((await deliveryOf(retried.id)).status, 'undelivered')
  })
})
