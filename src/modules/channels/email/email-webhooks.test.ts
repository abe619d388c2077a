import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { channelsApp, type ChannelsApp, get, ok, post } from '../channels.testkit.js'
import { simulatedOutbox } from './email-outbound.js'

const PASSWORD = 'inbound-password-0123456789'
const MAILGUN_KEY = 'key-mailgun-signing-0123456789abcdef'
const basic = (password: string) => `Basic ${Buffer.from(`inbound:${password}`).toString('base64')}`

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
const conversationOf = async (h: ChannelsApp, messageId: string) =>
  (await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', messageId).executeTakeFirstOrThrow()).conversation_id
const count = async (h: ChannelsApp) =>
  Number(
    (
      await h.app.kernel.db
        .selectFrom('inbox_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

/** Postmark's inbound JSON (https://postmarkapp.com/developer/webhooks/inbound-webhook), trimmed to what matters. */
const postmark = (o: {
  from: string
  to: string
  subject: string
  messageId: string
  text?: string
  html?: string
  headers?: { Name: string; Value: string }[]
  attachments?: { Name: string; Content: string; ContentType: string }[]
}) => ({
  FromName: 'Ann',
  MessageStream: 'inbound',
  From: o.from,
  FromFull: { Email: o.from, Name: 'Ann', MailboxHash: '' },
  To: o.to,
  ToFull: [{ Email: o.to, Name: '', MailboxHash: '' }],
  Cc: '',
  CcFull: [],
  OriginalRecipient: o.to,
  Subject: o.subject,
  MessageID: '22c74902-a0c1-4511-804f-341342852c90',
  ReplyTo: '',
  MailboxHash: '',
  Date: 'Sat, 28 Nov 2026 09:00:00 +0000',
  TextBody: o.text ?? '',
  HtmlBody: o.html ?? '',
  StrippedTextReply: '',
  Tag: '',
  Headers: [{ Name: 'Message-ID', Value: `<${o.messageId}>` }, ...(o.headers ?? [])],
  Attachments: o.attachments ?? [],
})

describe('email providers’ inbound webhooks: Postmark, SendGrid Inbound Parse, Mailgun routes', () => {
  let h: ChannelsApp
  let channel: any
  let bot: any
  before(async () => {
    h = await channelsApp()
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
    await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Opening hours', text: 'The shop is open Monday to Friday from 9:00 to 18:00.' }), 202)
    await h.drainJobs()
    bot = await ok(post(h, '/bots', { name: 'Mail bot', knowledge_base_ids: [kb.id] }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    channel = await ok(post(h, '/channels', { type: 'email', name: 'Help', bot_id: bot.id, email: { address: 'help@shop.test', webhook_password: PASSWORD, mailgun_signing_key: MAILGUN_KEY } }), 201)
  })
  after(() => h.close())

  const send = (url: string, init: { body: any; headers?: Record<string, string> }) => fetch(url, { method: 'POST', ...init })

  it('Postmark: basic auth as documented; the mail lands, the bot answers by email with Auto-Submitted; a retry writes nothing', async () => {
    assert.equal(channel.provider, 'simulated')
    assert.equal(channel.email.inbound.webhook_password_set, true)
    assert.doesNotMatch(JSON.stringify(channel), new RegExp(PASSWORD))
    const body = postmark({
      from: 'ann@example.net',
      to: 'help@shop.test',
      subject: 'Opening hours?',
      messageId: 'pm-1@example.net',
      text: 'When is the shop open?',
      attachments: [{ Name: 'photo.png', Content: Buffer.from('png-bytes').toString('base64'), ContentType: 'image/png' }],
    })
    const res = await send(channel.email.inbound.postmark_url, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })
    assert.equal(res.status, 200)
    const r = (await res.json()) as any
    assert.equal(r.duplicate, false)
    const conv = await conversationOf(h, r.message_id)
    const c = await ok(get(h, `/inbox/conversations/${conv}`))
    assert.deepEqual([c.channel, c.contact.email, c.subject], ['email', 'ann@example.net', 'Opening hours?'])
    await h.drainJobs()
    const msgs = await messagesOf(h, conv)
    assert.equal(msgs.length, 2, JSON.stringify(msgs))
    assert.deepEqual([msgs[0].attachments[0].filename, msgs[0].attachments[0].size_bytes], ['photo.png', 9])
    assert.deepEqual([msgs[1].author.type, msgs[1].delivery.status], ['bot', 'delivered'])
    const mail = simulatedOutbox.find((m) => m.inReplyTo === 'pm-1@example.net')!
    assert.ok(mail, 'the bot’s answer went out')
    assert.equal(mail.automatic, true)
    assert.equal(mail.to, 'ann@example.net')

    const again = await send(channel.email.inbound.postmark_url, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })
    assert.equal(((await again.json()) as any).duplicate, true)
    assert.equal((await messagesOf(h, conv)).length, 2)
  })

  it('Postmark: a wrong or missing password, or an unknown channel, is 401 before the body is read; nothing is written', async () => {
    const before = await count(h)
    const body = JSON.stringify(postmark({ from: 'eve@example.net', to: 'help@shop.test', subject: 'x', messageId: 'forged@example.net', text: 'forged' }))
    for (const headers of [{ authorization: basic('wrong-password-0123456789') }, {}, { authorization: 'Bearer abc' }] as Record<string, string>[]) {
      const res = await send(channel.email.inbound.postmark_url, { body, headers: { 'content-type': 'application/json', ...headers } })
      assert.equal(res.status, 401)
      assert.match(res.headers.get('www-authenticate') ?? '', /^Basic/)
      assert.match(res.headers.get('content-type') ?? '', /application\/problem\+json/)
      const p = (await res.json()) as any
      assert.equal(p.code, 'channel_webhook_unauthorized')
      assert.ok(p.request_id)
    }
    const unknown = await send(`${h.config.publicUrl}/channels/chn_01JD0000000000000000000000/email/postmark`, {
      body,
      headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) },
    })
    assert.equal(unknown.status, 401)
    // Signed in but not mail: a clear 400.
    const bad = await send(channel.email.inbound.postmark_url, { body: JSON.stringify({ From: 'not an address' }), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })
    assert.equal(bad.status, 400)
    // Hostile JSON (nesting a parser could choke on) is refused as a client error, alone.
    const deep = await send(channel.email.inbound.postmark_url, { body: '['.repeat(200_000) + ']'.repeat(200_000), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })
    assert.ok(deep.status >= 400 && deep.status < 500, `deep JSON: ${deep.status}`)
    assert.match(deep.headers.get('content-type') ?? '', /application\/problem\+json/)
    assert.equal(await count(h), before)
  })

  it('auto-replies and bounces land in the inbox but the bot does not answer them (RFC 3834, DSN)', async () => {
    const ooo = postmark({
      from: 'ann@example.net',
      to: 'help@shop.test',
      subject: 'Out of office',
      messageId: 'ooo@example.net',
      text: 'I am away until Monday.',
      headers: [{ Name: 'Auto-Submitted', Value: 'auto-replied' }],
    })
    const res = await send(channel.email.inbound.postmark_url, { body: JSON.stringify(ooo), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })
    const r = (await res.json()) as any
    await h.drainJobs()
    const msgs = await messagesOf(h, await conversationOf(h, r.message_id))
    assert.equal(msgs.length, 1)
    assert.match(msgs[0].content, /^\[Automatic reply\]/)
    const bounce = postmark({
      from: 'MAILER-DAEMON@mx.example.net',
      to: 'help@shop.test',
      subject: 'Undelivered Mail Returned to Sender',
      messageId: 'dsn@mx.example.net',
      text: 'The mail system could not deliver.',
    })
    const b = (await (await send(channel.email.inbound.postmark_url, { body: JSON.stringify(bounce), headers: { 'content-type': 'application/json', authorization: basic(PASSWORD) } })).json()) as any
    await h.drainJobs()
    const bm = await messagesOf(h, await conversationOf(h, b.message_id))
    assert.equal(bm.length, 1)
    assert.match(bm[0].content, /^\[Delivery report\]/)
  })

  it('SendGrid Inbound Parse: raw MIME and parsed fields (with a file), basic auth; a forged request is 401', async () => {
    const raw = 'From: Bob <bob@example.net>\r\nTo: help@shop.test\r\nSubject: Raw mode\r\nMessage-ID: <sg-raw@example.net>\r\nContent-Type: text/plain\r\n\r\nSent raw.\r\n'
    const form = new FormData()
    form.set('to', 'help@shop.test')
    form.set('from', 'Bob <bob@example.net>')
    form.set('envelope', JSON.stringify({ to: ['help@shop.test'], from: 'bob@example.net' }))
    form.set('email', raw)
    const res = await send(channel.email.inbound.sendgrid_url, { body: form, headers: { authorization: basic(PASSWORD) } })
    assert.equal(res.status, 200, await res.clone().text())
    const r = (await res.json()) as any
    assert.equal((await messagesOf(h, await conversationOf(h, r.message_id)))[0].content, 'Sent raw.')

    const parsed = new FormData()
    parsed.set('headers', 'Message-ID: <sg-parsed@example.net>\r\nFrom: Bob <bob@example.net>\r\nTo: help@shop.test\r\nSubject: Parsed mode\r\n')
    parsed.set('from', 'Bob <bob@example.net>')
    parsed.set('to', 'help@shop.test')
    parsed.set('subject', 'Parsed mode')
    parsed.set('text', 'Sent parsed.')
    parsed.set('html', '<p>Sent parsed.</p><script>x()</script>')
    parsed.set('envelope', JSON.stringify({ to: ['help@shop.test'], from: 'bob@example.net' }))
    parsed.set('attachments', '1')
    parsed.set('attachment-info', JSON.stringify({ attachment1: { filename: 'a.txt', type: 'text/plain' } }))
    parsed.set('attachment1', new Blob(['hello file'], { type: 'text/plain' }), 'a.txt')
    const p = await send(channel.email.inbound.sendgrid_url, { body: parsed, headers: { authorization: basic(PASSWORD) } })
    assert.equal(p.status, 200, await p.clone().text())
    const pm = (await messagesOf(h, await conversationOf(h, ((await p.json()) as any).message_id)))[0]
    assert.equal(pm.content, 'Sent parsed.')
    assert.deepEqual([pm.attachments[0].filename, pm.attachments[0].size_bytes], ['a.txt', 10])

    const forged = await send(channel.email.inbound.sendgrid_url, { body: form, headers: { authorization: basic('not-the-password-0000') } })
    assert.equal(forged.status, 401)
  })

  it('Mailgun: HMAC-SHA256 of timestamp + token with the signing key; a bad signature or a stale timestamp is 401', async () => {
    const signed = (fields: Record<string, string>, key = MAILGUN_KEY, timestamp = String(Math.floor(h.clock.now().getTime() / 1000))) => {
      const token = 'a'.repeat(40) + Math.random().toString(16).slice(2, 12)
      const form = new URLSearchParams({
        ...fields,
        timestamp,
        token,
        signature: createHmac('sha256', key)
          .update(timestamp + token)
          .digest('hex'),
      })
      return { body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } }
    }
    const fields = {
      recipient: 'help@shop.test',
      sender: 'cy@example.net',
      from: 'Cy <cy@example.net>',
      subject: 'Mailgun mode',
      'body-plain': 'Routed by Mailgun.',
      'message-headers': JSON.stringify([
        ['Message-Id', '<mg-1@example.net>'],
        ['From', 'Cy <cy@example.net>'],
      ]),
    }
    const res = await send(channel.email.inbound.mailgun_url, signed(fields))
    assert.equal(res.status, 200, await res.clone().text())
    const conv = await conversationOf(h, ((await res.json()) as any).message_id)
    assert.equal((await messagesOf(h, conv))[0].content, 'Routed by Mailgun.')
    assert.equal((await ok(get(h, `/inbox/conversations/${conv}`))).contact.email, 'cy@example.net')

    const before = await count(h)
    const wrongKey = await send(channel.email.inbound.mailgun_url, signed({ ...fields, 'message-headers': JSON.stringify([['Message-Id', '<mg-2@example.net>']]) }, 'key-wrong-0000000000000000000000'))
    assert.equal(wrongKey.status, 401)
    const stale = await send(
      channel.email.inbound.mailgun_url,
      signed({ ...fields, 'message-headers': JSON.stringify([['Message-Id', '<mg-3@example.net>']]) }, MAILGUN_KEY, String(Math.floor(h.clock.now().getTime() / 1000) - 3600)),
    )
    assert.equal(stale.status, 401)
    const unsigned = await send(channel.email.inbound.mailgun_url, { body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    assert.equal(unsigned.status, 401)
    assert.equal(await count(h), before)
  })
})
