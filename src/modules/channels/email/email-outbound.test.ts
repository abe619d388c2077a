import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assertProblem, channelsApp, type ChannelsApp, get, newChannel, ok, post } from '../channels.testkit.js'
import { sendInto, startSmtpSink, type SmtpSink } from './email.testkit.js'

// Replies with files, and conversations an agent starts: what the service sends is read back from a real
// SMTP peer on 127.0.0.1 and parsed with mailparser; the customer's answers come in through our listener.

const messagesOf = async (h: ChannelsApp, conv: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data
const conversationOfReceipt = async (h: ChannelsApp, messageId: string) => {
  const r = await h.app.kernel.db.selectFrom('channel_receipts').select('message_id').where('provider_sid', '=', messageId).executeTakeFirstOrThrow()
  return (await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', r.message_id).executeTakeFirstOrThrow()).conversation_id
}

/** The customer's own file server: a small PDF, a file over the per-file cap, and a missing one. */
async function startFileServer() {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.4 report '), Buffer.alloc(200, 0x41)])
  const server: Server = createServer((req, res) => {
    if (req.url === '/files/report.pdf') return res.writeHead(200, { 'content-type': 'application/pdf' }).end(pdf)
    if (req.url === '/files/big.bin') return res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.alloc(5000, 1))
    res.writeHead(404).end('no')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, pdf, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

describe('email outbound: attachments as MIME parts, conversations started by an agent', () => {
  let h: ChannelsApp
  let sink: SmtpSink
  let files: Awaited<ReturnType<typeof startFileServer>>
  let port: number
  let channel: any
  before(async () => {
    sink = await startSmtpSink()
    files = await startFileServer()
    h = await channelsApp({ SMTP_LISTEN_PORT: '0', SMTP_LISTEN_HOST: '127.0.0.1', SMTP_HOSTNAME: 'mx.acme.test', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', EMAIL_MAX_ATTACHMENT_BYTES: '1000' })
    port = h.app.services.channels.email.smtp.port()!
    channel = await ok(
      post(h, '/channels', { type: 'email', name: 'Support email', email: { address: 'help@acme.test', from_name: 'Acme Help', relay: { host: '127.0.0.1', port: sink.port, secure: false } } }),
      201,
    )
  })
  after(async () => {
    await h.close()
    await sink.close()
    await files.close()
  })

  it('sends a reply’s files as attachments: a customer’s file we keep, a file fetched from its URL; one over the cap and one missing stay links', async () => {
    const sent = await sendInto(port, {
      from: 'ann@example.net',
      to: 'help@acme.test',
      subject: 'Broken tent pole',
      messageId: '<att.1@example.net>',
      text: 'The pole snapped, photo attached.',
      attachments: [{ filename: 'pole.png', content: Buffer.from('\x89PNG fake pole', 'latin1'), contentType: 'image/png' }],
    })
    assert.equal(sent.ok, true, JSON.stringify(sent))
    const conv = await conversationOfReceipt(h, 'att.1@example.net')
    const [first] = await messagesOf(h, conv)
    const before = sink.mails.length
    await ok(
      post(h, `/inbox/conversations/${conv}/messages`, {
        content: 'Thanks! Our return form and your photo are attached.',
        attachments: [
          { url: first.attachments[0].url, filename: 'your-photo.png' },
          { url: `${files.base}/files/report.pdf`, filename: 'return-form.pdf' },
          { url: `${files.base}/files/big.bin`, filename: 'manual.bin' },
          { url: `${files.base}/files/missing.pdf` },
          { url: 'http://169.254.169.254/latest/meta-data/iam', filename: 'creds.txt' },
        ],
      }),
      201,
    )
    await h.drainJobs()
    assert.equal(sink.mails.length, before + 1)
    const mail = sink.mails.at(-1)!.parsed
    const parts = mail.attachments.map((a) => [a.filename, a.contentType, a.content.toString('latin1')])
    assert.deepEqual(parts, [
      ['your-photo.png', 'image/png', '\x89PNG fake pole'],
      ['return-form.pdf', 'application/pdf', files.pdf.toString('latin1')],
    ])
    assert.ok(mail.attachments.every((a) => a.contentDisposition === 'attachment'))
    assert.match(mail.text ?? '', /manual\.bin: http:\/\/127\.0\.0\.1:\d+\/files\/big\.bin/, 'over EMAIL_MAX_ATTACHMENT_BYTES: a link')
    assert.match(mail.text ?? '', /missing\.pdf: http:\/\/127\.0\.0\.1:\d+\/files\/missing\.pdf/, 'a 404: a link')
    assert.match(mail.text ?? '', /creds\.txt: http:\/\/169\.254\.169\.254\/latest\/meta-data\/iam/, 'refused by the address policy (cloud metadata): never fetched, a link')
    assert.doesNotMatch(mail.text ?? '', /report\.pdf|your-photo/, 'files sent as parts are not repeated as links')
  })

  it('starts a conversation to a customer’s address: the first mail carries our Message-ID and the reply address, and the answer threads back', async () => {
    const before = sink.mails.length
    const conv = await ok(
      post(h, '/inbox/conversations', {
        channel: 'email',
        subject: 'Your order 77 is ready',
        contact: { email: 'Bob@Example.net', name: 'Bob Buyer' },
        metadata: { channel_id: channel.id },
        message: { direction: 'outbound', content: 'Hi Bob, your order is ready for pick-up.' },
      }),
      201,
    )
    await h.drainJobs()
    assert.equal(sink.mails.length, before + 1)
    const out = sink.mails.at(-1)!
    const [first] = await messagesOf(h, conv.id)
    assert.deepEqual(out.envelope.to, ['bob@example.net'])
    assert.equal(out.parsed.subject, 'Your order 77 is ready', 'a new thread: no "Re:"')
    assert.equal(out.parsed.messageId, `<${first.id.toLowerCase()}@mx.acme.test>`)
    assert.equal(out.parsed.inReplyTo, undefined)
    assert.equal(out.parsed.from?.value[0].address, 'help@acme.test')
    const replyTo = out.parsed.replyTo?.value[0].address ?? ''
    assert.match(replyTo, /^help\+r[0-9a-f]{24}@acme\.test$/)
    assert.equal(first.delivery.status, 'sent')

    // Bob answers to the reply address; then once more to the plain address, threading by In-Reply-To only.
    assert.equal(
      (
        await sendInto(port, {
          from: 'bob@example.net',
          to: replyTo,
          subject: 'Re: Your order 77 is ready',
          messageId: '<bob.1@example.net>',
          inReplyTo: out.parsed.messageId,
          references: [out.parsed.messageId!],
          text: 'Great, I will come Friday.',
        })
      ).ok,
      true,
    )
    assert.equal(await conversationOfReceipt(h, 'bob.1@example.net'), conv.id)
    assert.equal(
      (
        await sendInto(port, {
          from: 'bob@example.net',
          to: 'help@acme.test',
          subject: 'Re: Your order 77 is ready',
          messageId: '<bob.2@example.net>',
          inReplyTo: '<bob.1@example.net>',
          text: 'Or Saturday.',
        })
      ).ok,
      true,
    )
    assert.equal(await conversationOfReceipt(h, 'bob.2@example.net'), conv.id)
    const msgs = await messagesOf(h, conv.id)
    assert.deepEqual(
      msgs.map((m: any) => [m.direction, m.content]),
      [
        ['outbound', 'Hi Bob, your order is ready for pick-up.'],
        ['inbound', 'Great, I will come Friday.'],
        ['inbound', 'Or Saturday.'],
      ],
    )

    // The agent's next mail answers the thread.
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'Saturday works.' }), 201)
    await h.drainJobs()
    const next = sink.mails.at(-1)!.parsed
    assert.equal(next.subject, 'Re: Your order 77 is ready')
    assert.equal(next.inReplyTo, '<bob.2@example.net>')
    assert.deepEqual([next.references].flat(), [out.parsed.messageId, '<bob.1@example.net>', '<bob.2@example.net>'])
  })

  it('a conversation started without a message is sent its first mail when the agent writes', async () => {
    const conv = await ok(post(h, '/inbox/conversations', { channel: 'email', subject: 'Checking in', contact: { email: 'dee@example.net' }, metadata: { channel_id: channel.id } }), 201)
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'How is the tent?' }), 201)
    await h.drainJobs()
    const out = sink.mails.at(-1)!
    assert.deepEqual(out.envelope.to, ['dee@example.net'])
    assert.equal(out.parsed.subject, 'Checking in')
  })

  it('refuses a start it cannot send: an unknown or non-email channel, no address (422, nothing written)', async () => {
    const count = async () =>
      (
        await h.app.kernel.db
          .selectFrom('inbox_conversations')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n
    const n = Number(await count())
    const unknown = await post(h, '/inbox/conversations', {
      channel: 'email',
      contact: { email: 'x@example.net' },
      metadata: { channel_id: 'chn_01JD0000000000000000000000' },
      message: { direction: 'outbound', content: 'Hi' },
    })
    assertProblem(unknown, 422, 'validation_failed')
    assert.equal(unknown.json().errors[0].pointer, '/body/metadata/channel_id')
    const sms = await newChannel(h)
    const notEmail = await post(h, '/inbox/conversations', { channel: 'email', contact: { email: 'x@example.net' }, metadata: { channel_id: sms.id } })
    assertProblem(notEmail, 422, 'validation_failed')
    const noAddress = await post(h, '/inbox/conversations', { channel: 'email', contact: { name: 'No Mail' }, metadata: { channel_id: channel.id } })
    assertProblem(noAddress, 422, 'validation_failed')
    assert.equal(noAddress.json().errors[0].pointer, '/body/contact/email')
    assert.equal(Number(await count()), n, 'nothing written')
  })
})
