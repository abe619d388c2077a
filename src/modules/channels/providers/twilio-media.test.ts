import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request } from 'undici'
import { channelsApp, type ChannelsApp, get, newChannel, ok, post, startTwilioMessaging, type TwilioMessaging } from '../channels.testkit.js'
import { MEDIA_MAX_BYTES } from './twilio-media.js'

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF'), Buffer.alloc(200, 1)])
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
async function inboundMessage(h: ChannelsApp, sid: string) {
  const r = await h.app.kernel.db.selectFrom('channel_receipts').select('message_id').where('provider_sid', '=', sid).executeTakeFirstOrThrow()
  const m = await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', r.message_id).executeTakeFirstOrThrow()
  return { conv: m.conversation_id, message: (await messagesOf(h, m.conversation_id)).find((x: any) => x.id === r.message_id) }
}

describe('Twilio Messaging media: inbound media kept in the blob store, outbound media as MediaUrl', () => {
  let h: ChannelsApp
  let tw: TwilioMessaging
  let mms: any
  /** A signed link to media we stored (the first test's photo). */
  let stored: { url: string; content_type: string }
  before(async () => {
    tw = await startTwilioMessaging()
    h = await channelsApp()
    mms = await newChannel(h, { phone_number: '+14155550140', provider: 'twilio', credentials: tw.credentials })
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('fetches each media with the account’s basic auth (not sent on to the CDN), stores it, and links the message to a signed copy', async () => {
    const media = [
      { url: tw.addMedia(JPEG, 'image/jpeg'), type: 'image/jpeg' },
      { url: tw.addMedia(PDF, 'application/pdf; charset=binary'), type: 'application/pdf' },
    ]
    const inbound = await tw.inbound(mms.webhooks.messages_url, { from: '+14155550180', to: mms.phone_number, body: 'Photo and invoice', media })
    assert.equal(inbound.status, 200)
    const { message } = await inboundMessage(h, inbound.sid)
    assert.equal(message.content, 'Photo and invoice')
    assert.deepEqual(
      message.attachments.map((a: any) => [a.filename, a.content_type, a.size_bytes]),
      [
        ['media-1.jpg', 'image/jpeg', JPEG.length],
        ['media-2.pdf', 'application/pdf', PDF.length],
      ],
    )
    const auth = `Basic ${Buffer.from(`${tw.accountSid}:${tw.authToken}`).toString('base64')}`
    const fetched = tw.requests.filter((r) => r.method === 'GET')
    assert.equal(fetched.length, 2)
    assert.ok(fetched.every((r) => r.headers.authorization === auth))
    assert.equal(tw.cdnRequests.length, 2)
    assert.ok(
      tw.cdnRequests.every((r) => r.headers.authorization === undefined),
      'the credentials stay with Twilio’s API origin',
    )

    // Our copy, behind the signed link; the same path with another signature (or none) is a 404 problem.
    const [img, pdf] = message.attachments
    stored = img
    const res = await request(img.url)
    assert.equal(res.statusCode, 200)
    assert.deepEqual(Buffer.from(await res.body.arrayBuffer()), JPEG)
    assert.equal(res.headers['content-type'], 'image/jpeg')
    assert.equal(res.headers['x-content-type-options'], 'nosniff')
    assert.match(String(res.headers['content-security-policy']), /sandbox/)
    const doc = await request(pdf.url)
    assert.equal(doc.headers['content-disposition'], 'attachment')
    assert.deepEqual(Buffer.from(await doc.body.arrayBuffer()), PDF)
    for (const forged of [img.url.replace(/sig=.*/, 'sig=AAAA'), img.url.replace(/\?sig=.*/, ''), pdf.url.replace('/1?sig=', '/0?sig=')]) {
      const r = await request(forged)
      assert.equal(r.statusCode, 404, forged)
      assert.match(String(r.headers['content-type']), /application\/problem\+json/)
      assert.ok(JSON.parse(await r.body.text()).request_id)
    }

    // Twilio retrying the webhook fetches nothing again and writes nothing new.
    const again = await tw.inbound(mms.webhooks.messages_url, { from: '+14155550180', to: mms.phone_number, body: 'Photo and invoice', media, sid: inbound.sid })
    assert.equal(again.status, 200)
    assert.equal(tw.requests.filter((r) => r.method === 'GET').length, 2)
  })

  it('keeps the message whatever its media: wrong bytes, a type we do not keep, too large, another origin stay links to Twilio with the reason', async () => {
    const before = tw.requests.filter((r) => r.method === 'GET').length
    const media = [
      { url: tw.addMedia(Buffer.from('<script>alert(1)</script>'), 'image/png'), type: 'image/png' },
      { url: tw.addMedia(Buffer.from('MZ\x90\x00'), 'application/x-msdownload'), type: 'application/x-msdownload' },
      { url: tw.addMedia(Buffer.alloc(MEDIA_MAX_BYTES + 1), 'video/mp4'), type: 'video/mp4' },
      { url: 'https://media.example.com/2010-04-01/Accounts/AC/Messages/MM/Media/ME', type: 'image/jpeg' },
      { url: tw.addMedia(JPEG, 'image/jpeg'), type: 'image/jpeg' },
    ]
    const inbound = await tw.inbound(mms.webhooks.messages_url, { from: '+14155550181', to: mms.phone_number, body: '', media })
    assert.equal(inbound.status, 200)
    const { message } = await inboundMessage(h, inbound.sid)
    assert.deepEqual(
      message.attachments.map((a: any) => [a.url.startsWith(h.config.publicUrl) ? 'ours' : a.url, a.size_bytes]),
      [
        [media[0].url, null],
        [media[1].url, null],
        [media[2].url, null],
        [media[3].url, null],
        ['ours', JPEG.length],
      ],
    )
    const notes = message.content.split('\n')
    assert.equal(notes.length, 4)
    assert.match(notes[0], /^\[Media 1 not kept: its bytes are not image\/png\]$/)
    assert.match(notes[1], /^\[Media 2 not kept: its type application\/x-msdownload is not one we keep\]$/)
    assert.match(notes[2], new RegExp(`^\\[Media 3 not kept: larger than ${MEDIA_MAX_BYTES} bytes\\]$`))
    assert.match(notes[3], /^\[Media 4 not kept: not on http:\/\/127\.0\.0\.1:\d+; the account's credentials are not sent elsewhere\]$/)
    // The foreign URL was never asked; the other four were.
    assert.equal(tw.requests.filter((r) => r.method === 'GET').length, before + 4)
  })

  it('a data-subject erasure by phone deletes the media they sent and their number on the receipts; a second run finds nothing', async () => {
    const phone = '+14155550183'
    const inbound = await tw.inbound(mms.webhooks.messages_url, {
      from: phone,
      to: mms.phone_number,
      body: 'My receipt',
      media: [{ url: tw.addMedia(PDF, 'application/pdf'), type: 'application/pdf' }],
    })
    const other = await tw.inbound(mms.webhooks.messages_url, { from: '+14155550184', to: mms.phone_number, body: 'Mine', media: [{ url: tw.addMedia(JPEG, 'image/jpeg'), type: 'image/jpeg' }] })
    const [theirs, kept] = [(await inboundMessage(h, inbound.sid)).message.attachments[0].url, (await inboundMessage(h, other.sid)).message.attachments[0].url]
    assert.equal((await request(theirs)).statusCode, 200)
    const tenant = { workspaceId: h.a.workspaceId, mode: 'live' as const }
    const module = h.app.kernel.modules.find((m) => m.name === 'channels')!
    const erase = () => module.privacy!.erase(h.app.kernel, h.app.services, tenant, { phone, email: null, external_id: null })
    assert.ok((await erase()).deleted >= 1)
    assert.equal((await request(theirs)).statusCode, 404, 'their media is gone')
    assert.equal((await request(kept)).statusCode, 200, 'another customer’s stays')
    const receipt = await h.app.kernel.db.selectFrom('channel_receipts').selectAll().where('provider_sid', '=', inbound.sid).executeTakeFirstOrThrow()
    assert.equal(receipt.contact_phone, null, 'the receipt stays (a late retry still finds it) without their number')
    assert.deepEqual(await erase(), { deleted: 0, anonymised: 0 })
  })

  it('sends a reply’s attachments as MediaUrl', async () => {
    const inbound = await tw.inbound(mms.webhooks.messages_url, { from: '+14155550182', to: mms.phone_number, body: 'Menu please' })
    const { conv, message } = await inboundMessage(h, inbound.sid)
    assert.equal(message.attachments.length, 0)
    // A public file, and one of our own signed links (Twilio fetches it from PUBLIC_URL).
    const attachments = [
      { url: 'https://cdn.example.com/menu.pdf', content_type: 'application/pdf' },
      { url: stored.url, content_type: stored.content_type },
    ]
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Here it is', attachments }), 201)
    await h.drainJobs()
    const sent = tw.requests.filter((r) => r.path.endsWith('/Messages.json')).at(-1)!
    assert.equal(sent.form.get('Body'), 'Here it is')
    assert.deepEqual(
      sent.form.getAll('MediaUrl'),
      attachments.map((a) => a.url),
    )
  })
})
