import assert from 'node:assert/strict'
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem, channelsApp, type ChannelsApp, get, ok, patch, post } from '../channels.testkit.js'
import { startSmtpSink, type SmtpSink } from './email.testkit.js'

// SendGrid's signed webhooks as SendGrid signs them: ECDSA P-256 / SHA-256 over the timestamp header's value
// followed by the raw body, base64 DER in X-Twilio-Email-Event-Webhook-Signature; the public key given to
// the channel as SendGrid shows it (base64 of the DER SubjectPublicKeyInfo).

const keyPair = () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  return { privateKey, shown: publicKey.export({ format: 'der', type: 'spki' }).toString('base64') }
}
const signed = (privateKey: KeyObject, body: Buffer, timestamp: string) => ({
  'x-twilio-email-event-webhook-timestamp': timestamp,
  'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('base64'),
})
/** A multipart/form-data body as a client makes it: its exact bytes (to sign) and its content type. */
async function multipart(fields: Record<string, string>, file?: { name: string; type: string; content: string }) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  if (file) form.append('attachment1', new Blob([file.content], { type: file.type }), file.name)
  const req = new Request('http://x/', { method: 'POST', body: form })
  return { body: Buffer.from(await req.arrayBuffer()), contentType: req.headers.get('content-type')! }
}
const RAW = (id: string, text: string) => `From: Ann <ann@example.net>\r\nTo: help@grid.test\r\nSubject: Signed\r\nMessage-ID: <${id}>\r\n\r\n${text}\r\n`

describe('SendGrid signed webhooks: Inbound Parse under a signature policy, and the Event Webhook', () => {
  let h: ChannelsApp
  let sink: SmtpSink
  let channel: any
  const parseKey = keyPair()
  const eventsKey = keyPair()
  const now = () => String(Math.floor(h.clock.now().getTime() / 1000))
  const count = async () =>
    Number(
      (
        await h.app.kernel.db
          .selectFrom('inbox_messages')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    )
  const postTo = (url: string, body: Buffer, headers: Record<string, string>) => fetch(url, { method: 'POST', body: new Uint8Array(body), headers })

  before(async () => {
    sink = await startSmtpSink()
    h = await channelsApp({ SMTP_HOSTNAME: 'mx.grid.test', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    channel = await ok(
      post(h, '/channels', {
        type: 'email',
        name: 'Grid',
        email: {
          address: 'help@grid.test',
          relay: { host: '127.0.0.1', port: sink.port, secure: false },
          webhook_password: 'inbound-password-0123456789',
          sendgrid_verification_key: parseKey.shown,
          sendgrid_event_verification_key: eventsKey.shown,
        },
      }),
      201,
    )
  })
  after(async () => {
    await h.close()
    await sink.close()
  })

  it('takes a key only when it is an ECDSA P-256 public key, and shows only that one is set', async () => {
    assert.equal(channel.email.inbound.sendgrid_signed, true)
    assert.equal(channel.email.inbound.sendgrid_events, true)
    assert.match(channel.email.inbound.sendgrid_events_url, /\/channels\/.+\/email\/sendgrid\/events$/)
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'der', type: 'spki' }).toString('base64')
    for (const key of [rsa, 'bm90IGEga2V5IGF0IGFsbCwganVzdCBzb21lIHRleHQgaGVyZQ==']) {
      const r = await patch(h, `/channels/${channel.id}`, { email: { sendgrid_verification_key: key } })
      assertProblem(r, 422, 'validation_failed')
      assert.equal(r.json().errors[0].pointer, '/body/email/sendgrid_verification_key')
    }
  })

  it('Inbound Parse, signed: parsed fields with a file and raw MIME land; the signature is checked over the exact bytes', async () => {
    const { body, contentType } = await multipart(
      {
        from: 'Ann <ann@example.net>',
        to: 'help@grid.test',
        subject: 'Signed parse',
        text: 'Hello from SendGrid.',
        headers: 'Message-ID: <sg-1@example.net>\nSubject: Signed parse',
        envelope: JSON.stringify({ to: ['help@grid.test'], from: 'ann@example.net' }),
      },
      { name: 'note.txt', type: 'text/plain', content: 'file body' },
    )
    const res = await postTo(channel.email.inbound.sendgrid_url, body, { 'content-type': contentType, ...signed(parseKey.privateKey, body, now()) })
    assert.equal(res.status, 200, await res.clone().text())
    const r = (await res.json()) as { message_id: string; duplicate: boolean }
    const messages = (
      await ok(
        get(
          h,
          `/inbox/conversations/${(await h.app.kernel.db.selectFrom('inbox_messages').select('conversation_id').where('id', '=', r.message_id).executeTakeFirstOrThrow()).conversation_id}/messages`,
        ),
      )
    ).data
    assert.equal(messages[0].content, 'Hello from SendGrid.')
    assert.deepEqual(
      messages[0].attachments.map((a: any) => [a.filename, a.size_bytes]),
      [['note.txt', 9]],
    )

    const raw = await multipart({ email: RAW('sg-2@example.net', 'Raw and signed.'), to: 'help@grid.test' })
    const res2 = await postTo(channel.email.inbound.sendgrid_url, raw.body, { 'content-type': raw.contentType, ...signed(parseKey.privateKey, raw.body, now()) })
    assert.equal(res2.status, 200)
    assert.equal(((await res2.json()) as { duplicate: boolean }).duplicate, false)
  })

  it('Inbound Parse, signed: a forged, tampered, stale, unsigned or basic-auth-only post is 401 and writes nothing', async () => {
    const before = await count()
    const raw = await multipart({ email: RAW('sg-forged@example.net', 'Forged.'), to: 'help@grid.test' })
    const other = keyPair()
    const tampered = Buffer.from(raw.body)
    tampered[tampered.indexOf('Forged.')] = 'X'.charCodeAt(0)
    const cases: [string, Buffer, Record<string, string>][] = [
      ['another key', raw.body, signed(other.privateKey, raw.body, now())],
      ['tampered body', tampered, signed(parseKey.privateKey, raw.body, now())],
      ['stale timestamp (4 days)', raw.body, signed(parseKey.privateKey, raw.body, String(Number(now()) - 4 * 86400))],
      ['signed with another timestamp', raw.body, { ...signed(parseKey.privateKey, raw.body, now()), 'x-twilio-email-event-webhook-timestamp': String(Number(now()) - 1) }],
      ['no signature', raw.body, {}],
      ['basic auth only', raw.body, { authorization: `Basic ${Buffer.from('inbound:inbound-password-0123456789').toString('base64')}` }],
    ]
    for (const [what, body, headers] of cases) {
      const res = await postTo(channel.email.inbound.sendgrid_url, body, { 'content-type': raw.contentType, ...headers })
      assert.equal(res.status, 401, what)
      assert.equal(((await res.json()) as { code: string }).code, 'channel_webhook_unauthorized', what)
    }
    assert.equal(await count(), before)
  })

  it('Event Webhook: delivered and bounce events move our replies’ delivery; a forged post is 401 and changes nothing', async () => {
    const conv = await ok(
      post(h, '/inbox/conversations', {
        channel: 'email',
        subject: 'Events',
        contact: { email: 'eve@example.net' },
        metadata: { channel_id: channel.id },
        message: { direction: 'outbound', content: 'First.' },
      }),
      201,
    )
    const second = await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'Second.' }), 201)
    await h.drainJobs()
    const delivery = async (id: string) => (await ok(get(h, `/inbox/conversations/${conv.id}/messages`))).data.find((m: any) => m.id === id).delivery
    const [firstId] = (await ok(get(h, `/inbox/conversations/${conv.id}/messages?order=asc`))).data.map((m: any) => m.id)
    assert.equal((await delivery(firstId)).status, 'sent')
    const smtpId = (id: string) => `<${id.toLowerCase()}@mx.grid.test>`
    const events = Buffer.from(
      JSON.stringify([
        { email: 'eve@example.net', timestamp: 1, event: 'processed', 'smtp-id': smtpId(firstId) },
        { email: 'eve@example.net', timestamp: 2, event: 'delivered', 'smtp-id': smtpId(firstId), response: '250 OK' },
        { email: 'eve@example.net', timestamp: 3, event: 'bounce', type: 'bounce', 'smtp-id': smtpId(second.id), reason: '550 5.1.1 no such user' },
        { email: 'x@example.net', timestamp: 4, event: 'delivered', 'smtp-id': '<not-ours@elsewhere>' },
      ]),
    )
    const forged = await postTo(channel.email.inbound.sendgrid_events_url, events, { 'content-type': 'application/json', ...signed(parseKey.privateKey, events, now()) })
    assert.equal(forged.status, 401, 'the Parse key does not sign events')
    assert.equal((await delivery(firstId)).status, 'sent')
    const res = await postTo(channel.email.inbound.sendgrid_events_url, events, { 'content-type': 'application/json', ...signed(eventsKey.privateKey, events, now()) })
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), { received: 4 })
    assert.equal((await delivery(firstId)).status, 'delivered')
    const bounced = await delivery(second.id)
    assert.deepEqual([bounced.status, bounced.error_code, bounced.error_message], ['undelivered', 'bounced', '550 5.1.1 no such user'])
    // A repeat of the batch (SendGrid retries) changes nothing.
    const again = await postTo(channel.email.inbound.sendgrid_events_url, events, { 'content-type': 'application/json', ...signed(eventsKey.privateKey, events, now()) })
    assert.equal(again.status, 200)
    assert.equal((await delivery(firstId)).status, 'delivered')
  })

  it('Event Webhook: a channel without its key takes no events (401), and a body that is not an array is 400', async () => {
    const plain = await ok(post(h, '/channels', { type: 'email', name: 'Plain', email: { address: 'plain@grid.test', relay: { host: '127.0.0.1', port: sink.port, secure: false } } }), 201)
    const body = Buffer.from('[]')
    const res = await postTo(plain.email.inbound.sendgrid_events_url, body, { 'content-type': 'application/json', ...signed(eventsKey.privateKey, body, now()) })
    assert.equal(res.status, 401)
    const notArray = Buffer.from('{"event":"delivered"}')
    const bad = await postTo(channel.email.inbound.sendgrid_events_url, notArray, { 'content-type': 'application/json', ...signed(eventsKey.privateKey, notArray, now()) })
    assert.equal(bad.status, 400)
  })
})
