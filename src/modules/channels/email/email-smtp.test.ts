import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import nodemailer from 'nodemailer'
import { request } from 'undici'
import { channelsApp, type ChannelsApp, get, ok, post } from '../channels.testkit.js'
import { sendInto, sendRaw, startSmtpSink, type SmtpSink } from './email.testkit.js'

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
const conversationOfReceipt = async (h: ChannelsApp, messageId: string) => {
  const r = await h.app.kernel.db.selectFrom('channel_receipts').select('message_id').where('provider_sid', '=', messageId).executeTakeFirstOrThrow()
  return (await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', r.message_id).executeTakeFirstOrThrow()).conversation_id
}

describe('email round trip: mail in through our SMTP listener, replies out through an SMTP relay (both real, on 127.0.0.1)', () => {
  let h: ChannelsApp
  let sink: SmtpSink
  let port: number
  let channel: any
  before(async () => {
    sink = await startSmtpSink({ user: 'relay-user', password: 'relay-secret-1' })
    h = await channelsApp({ SMTP_LISTEN_PORT: '0', SMTP_LISTEN_HOST: '127.0.0.1', SMTP_HOSTNAME: 'mx.acme.test', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    port = h.app.services.channels.email.smtp.port()!
    channel = await ok(
      post(h, '/channels', {
        type: 'email',
        name: 'Support email',
        email: { address: 'Support@Acme.test', from_name: 'Acme Support', relay: { host: '127.0.0.1', port: sink.port, secure: false, user: 'relay-user', password: 'relay-secret-1' } },
      }),
      201,
    )
  })
  after(async () => {
    await h.close()
    await sink.close()
  })

  it('creates an email channel: address, relay without its password, provider smtp', async () => {
    assert.equal(channel.type, 'email')
    assert.equal(channel.provider, 'smtp')
    assert.equal(channel.phone_number, null)
    assert.equal(channel.email.address, 'support@acme.test')
    assert.deepEqual(channel.email.relay, { host: '127.0.0.1', port: sink.port, secure: false, user: 'relay-user', password_set: true })
    assert.equal(channel.email.inbound.smtp, true)
    assert.doesNotMatch(JSON.stringify(channel), /relay-secret-1/)
    const row = await h.app.kernel.db.selectFrom('channel_emails').selectAll().where('channel_id', '=', channel.id).executeTakeFirstOrThrow()
    assert.doesNotMatch(row.relay_password_sealed!, /relay-secret-1/, 'sealed at rest')
    const again = await post(h, '/channels', { type: 'email', name: 'Same address', email: { address: 'support@acme.test' } })
    assert.equal(again.statusCode, 409)
    assert.equal(again.json().code, 'channel_address_taken')
  })

  it('a customer’s mail becomes a conversation; the agent’s reply goes out threaded; the answer to it lands in the same conversation', async () => {
    const sent = await sendInto(port, {
      from: '"Ann Customer" <ann@example.net>',
      to: 'support@acme.test',
      subject: 'Where is my order?',
      messageId: '<first.1@example.net>',
      text: 'Hello, order 1234 has not arrived.',
      html: '<p>Hello, order <b>1234</b> has not arrived.</p><script>alert(1)</script>',
      attachments: [{ filename: 'receipt.pdf', content: Buffer.from('%PDF-1.4 receipt'), contentType: 'application/pdf' }],
    })
    assert.equal(sent.ok, true, JSON.stringify(sent))
    const conv = await conversationOfReceipt(h, 'first.1@example.net')
    const c = await ok(get(h, `/inbox/conversations/${conv}`))
    assert.deepEqual([c.channel, c.contact.email, c.contact.name, c.subject], ['email', 'ann@example.net', 'Ann Customer', 'Where is my order?'])
    const [first] = await messagesOf(h, conv)
    assert.equal(first.content, 'Hello, order 1234 has not arrived.')
    assert.equal(first.attachments.length, 1)
    assert.deepEqual([first.attachments[0].filename, first.attachments[0].content_type, first.attachments[0].size_bytes], ['receipt.pdf', 'application/pdf', 16])
    const file = await request(first.attachments[0].url)
    assert.equal(file.statusCode, 200)
    assert.equal(await file.body.text(), '%PDF-1.4 receipt')
    const forged = await request(first.attachments[0].url.replace(/sig=.*/, 'sig=AAAA'))
    assert.equal(forged.statusCode, 404)
    await forged.body.dump()

    const reply = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Sorry about that!\n\nIt ships today: https://acme.test/track/1234' }), 201)
    await h.drainJobs()
    assert.equal(sink.mails.length, 1)
    const out = sink.mails[0]
    assert.deepEqual(out.envelope.to, ['ann@example.net'])
    assert.equal(out.parsed.from?.value[0].address, 'support@acme.test')
    assert.equal(out.parsed.from?.value[0].name, 'Acme Support')
    assert.equal(out.parsed.subject, 'Re: Where is my order?')
    assert.equal(out.parsed.inReplyTo, '<first.1@example.net>')
    assert.deepEqual([out.parsed.references].flat(), ['<first.1@example.net>'])
    assert.equal(out.parsed.messageId, `<${reply.id.toLowerCase()}@mx.acme.test>`)
    const replyTo = out.parsed.replyTo?.value[0].address ?? ''
    assert.match(replyTo, /^support\+r[0-9a-f]{24}@acme\.test$/)
    assert.match(out.parsed.text ?? '', /It ships today/)
    assert.match(String(out.parsed.html), /<a href="https:\/\/acme.test\/track\/1234">/)
    assert.equal(out.parsed.headers.get('auto-submitted'), undefined, 'a person’s reply is not automatic')
    assert.deepEqual(sink.auths, ['relay-user'])
    const delivery = async () => (await messagesOf(h, conv)).find((m: any) => m.id === reply.id).delivery
    assert.equal((await delivery()).status, 'sent')
    await h.drainJobs()
    assert.equal(sink.mails.length, 1, 'sent once')

    // Ann answers from her mail program: to the Reply-To, In-Reply-To our Message-ID, quoting us.
    const answer = await sendInto(port, {
      from: 'ann@example.net',
      to: replyTo,
      subject: 'Re: Where is my order?',
      messageId: '<second.2@example.net>',
      inReplyTo: out.parsed.messageId,
      references: ['<first.1@example.net>', out.parsed.messageId!],
      text: 'Thanks, got it.\n\nOn Sat, 28 Nov 2026 at 09:00, Acme Support <support@acme.test> wrote:\n> Sorry about that!\n',
    })
    assert.equal(answer.ok, true)
    assert.equal(await conversationOfReceipt(h, 'second.2@example.net'), conv)
    const msgs = await messagesOf(h, conv)
    assert.deepEqual(
      msgs.map((m: any) => [m.direction, m.content.split('\n')[0]]),
      [
        ['inbound', 'Hello, order 1234 has not arrived.'],
        ['outbound', 'Sorry about that!'],
        ['inbound', 'Thanks, got it.'],
      ],
    )
    assert.equal(msgs[2].content, 'Thanks, got it.', 'the quoted history is trimmed')

    // The next reply carries the whole thread.
    await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Glad to help.' }), 201)
    await h.drainJobs()
    const next = sink.mails[1].parsed
    assert.equal(next.inReplyTo, '<second.2@example.net>')
    assert.deepEqual([next.references].flat(), ['<first.1@example.net>', out.parsed.messageId, '<second.2@example.net>'])
  })

  it('threads by In-Reply-To / References alone (no reply address), and a new mail without them is a new conversation', async () => {
    await sendInto(port, { from: 'bob@example.net', to: 'support@acme.test', subject: 'Invoice', messageId: '<b1@example.net>', text: 'Need an invoice.' })
    const conv = await conversationOfReceipt(h, 'b1@example.net')
    await sendInto(port, { from: 'bob@example.net', to: 'support@acme.test', subject: 'Re: Invoice', messageId: '<b2@example.net>', references: ['<b1@example.net>'], text: 'For March please.' })
    assert.equal(await conversationOfReceipt(h, 'b2@example.net'), conv)
    await sendInto(port, { from: 'bob@example.net', to: 'support@acme.test', subject: 'Another question', messageId: '<b3@example.net>', text: 'Different topic.' })
    assert.notEqual(await conversationOfReceipt(h, 'b3@example.net'), conv)
  })

  it('a redelivered message (same Message-ID) makes no second message', async () => {
    const mail = { from: 'cy@example.net', to: 'support@acme.test', subject: 'Twice', messageId: '<twice@example.net>', text: 'Once please.' }
    assert.equal((await sendInto(port, mail)).ok, true)
    assert.equal((await sendInto(port, mail)).ok, true, 'accepted again: the sender must stop retrying')
    const conv = await conversationOfReceipt(h, 'twice@example.net')
    assert.equal((await messagesOf(h, conv)).length, 1)
  })

  it('sanitises HTML: a mail with only HTML keeps its text, never its script', async () => {
    await sendInto(port, {
      from: 'dee@example.net',
      to: 'support@acme.test',
      subject: 'HTML only',
      messageId: '<html@example.net>',
      html: '<div>Hi <img src=x onerror="alert(1)">there<script>document.cookie</script></div><p>Line two</p>',
    })
    const conv = await conversationOfReceipt(h, 'html@example.net')
    const [m] = await messagesOf(h, conv)
    assert.equal(m.content, 'Hi there\nLine two')
    assert.doesNotMatch(JSON.stringify(m), /script|onerror|cookie/)
  })

  it('refuses cleanly: unknown recipients (550), a 30 MB mail (552, while reading), malformed MIME (554); nothing is written', async () => {
    const before = await h.app.kernel.db
      .selectFrom('inbox_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    const unknown = await sendInto(port, { from: 'eve@example.net', to: 'nobody@acme.test', subject: 'x', text: 'x' })
    assert.equal(unknown.ok, false)
    assert.equal((unknown as any).responseCode, 550)
    const big = await sendInto(port, {
      from: 'eve@example.net',
      to: 'support@acme.test',
      subject: 'huge',
      text: 'x',
      attachments: [{ filename: 'big.bin', content: Buffer.alloc(30 * 1024 * 1024, 7) }],
    })
    assert.equal(big.ok, false)
    assert.equal((big as any).responseCode, 552, big.response)
    assert.match(big.response, /too big|size/i)
    const noFrom = await sendRaw(port, 'eve@example.net', 'support@acme.test', 'Subject: no sender\r\nContent-Type: text/plain\r\n\r\nwho am I\r\n')
    assert.equal(noFrom.ok, false)
    assert.equal((noFrom as any).responseCode, 554)
    const bomb = 'From: eve@example.net\r\nSubject: bomb\r\n' + 'Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n'.repeat(100) + 'x\r\n'
    const nested = await sendRaw(port, 'eve@example.net', 'support@acme.test', bomb)
    assert.equal((nested as any).responseCode, 554)
    const afterCount = await h.app.kernel.db
      .selectFrom('inbox_messages')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow()
    assert.equal(Number(afterCount.n), Number(before.n))
    // The listener still answers after all that.
    assert.equal((await sendInto(port, { from: 'fay@example.net', to: 'support@acme.test', subject: 'still there?', text: 'yes' })).ok, true)
  })

  it('a delivery report (DSN) of our reply lands in its conversation and marks the reply undelivered', async () => {
    await sendInto(port, { from: 'hal@example.net', to: 'support@acme.test', subject: 'Bounce me', messageId: '<bounce-q@example.net>', text: 'Question' })
    const conv = await conversationOfReceipt(h, 'bounce-q@example.net')
    const reply = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Answer' }), 201)
    await h.drainJobs()
    const ours = sink.mails.find((m) => m.parsed.messageId === `<${reply.id.toLowerCase()}@mx.acme.test>`)!
    assert.ok(ours)
    const dsn = [
      'From: MAILER-DAEMON@mx.example.net',
      'To: support@acme.test',
      'Subject: Undelivered Mail Returned to Sender',
      'Message-ID: <dsn-1@mx.example.net>',
      'Auto-Submitted: auto-replied',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain',
      '',
      'I could not deliver your message.',
      '--b1',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.net',
      '',
      'Final-Recipient: rfc822; hal@example.net',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 <hal@example.net>: user unknown',
      '--b1',
      'Content-Type: text/rfc822-headers',
      '',
      'From: Acme Support <support@acme.test>',
      `Message-ID: ${ours.parsed.messageId}`,
      'Subject: Re: Bounce me',
      '--b1--',
      '',
    ].join('\r\n')
    assert.equal((await sendRaw(port, '', 'support@acme.test', dsn)).ok, true)
    assert.equal(await conversationOfReceipt(h, 'dsn-1@mx.example.net'), conv, 'threaded by the returned Message-ID')
    const msgs = await messagesOf(h, conv)
    const d = msgs.find((m: any) => m.id === reply.id).delivery
    assert.deepEqual([d.status, d.error_code], ['undelivered', 'bounced'])
    assert.match(d.error_message, /user unknown/)
    assert.match(msgs[msgs.length - 1].content, /^\[Delivery report\]/)
    assert.deepEqual(msgs[msgs.length - 1].attachments, [], 'the returned headers are read, not kept as a file')
  })

  it('a relay’s temporary refusal is retried; a permanent one fails the delivery with the relay’s code', async () => {
    await sendInto(port, { from: 'gil@example.net', to: 'support@acme.test', subject: 'Retry', messageId: '<retry@example.net>', text: 'Hi' })
    const conv = await conversationOfReceipt(h, 'retry@example.net')
    const count = sink.mails.length
    sink.failNext(451)
    const first = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'One' }), 201)
    await h.drainJobs()
    const status = async (id: string) => (await messagesOf(h, conv)).find((m: any) => m.id === id).delivery
    assert.equal((await status(first.id)).status, 'queued')
    h.clock.advance(6_000)
    await h.drainJobs()
    assert.equal((await status(first.id)).status, 'sent')
    assert.equal(sink.mails.length, count + 1)
    sink.failNext(550)
    const second = await ok(post(h, `/inbox/conversations/${conv}/messages`, { content: 'Two' }), 201)
    await h.drainJobs()
    const d = await status(second.id)
    assert.deepEqual([d.status, d.error_code], ['failed', 'smtp_550'])
    assert.equal(sink.mails.length, count + 1)
  })
})

describe('the SMTP listener offers STARTTLS when a key and certificate are configured', () => {
  let h: ChannelsApp
  let dir: string
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'smtp-tls-'))
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=mx.acme.test', '-days', '1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], {
      stdio: 'ignore',
    })
    h = await channelsApp({ SMTP_LISTEN_PORT: '0', SMTP_LISTEN_HOST: '127.0.0.1', SMTP_TLS_KEY_FILE: join(dir, 'key.pem'), SMTP_TLS_CERT_FILE: join(dir, 'cert.pem') })
    await ok(post(h, '/channels', { type: 'email', name: 'TLS', email: { address: 'tls@acme.test' } }), 201)
  })
  after(async () => {
    await h.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a sender that requires TLS upgrades the connection and the mail lands', async () => {
    const port = h.app.services.channels.email.smtp.port()!
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false, servername: 'mx.acme.test' } })
    const info = await transport.sendMail({ from: 'ivy@example.net', to: 'tls@acme.test', subject: 'Over TLS', messageId: '<tls-1@example.net>', text: 'Encrypted in transit.' })
    transport.close()
    assert.match(info.response, /^250/)
    const [m] = await messagesOf(h, await conversationOfReceipt(h, 'tls-1@example.net'))
    assert.equal(m.content, 'Encrypted in transit.')
  })
})
