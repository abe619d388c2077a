import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, channelsApp, get, newChannel, ok, patch, post, type ChannelsApp, widgetRequest } from '../channels.testkit.js'
import { sendInto, startSmtpSink, type SmtpSink } from '../email/email.testkit.js'

const SITE = 'https://shop.example.com'
const MINUTE = 60_000

describe('a web chat continued by e-mail once the visitor has left (a real relay and our SMTP listener on 127.0.0.1)', () => {
  let h: ChannelsApp
  let sink: SmtpSink
  let smtpPort: number
  let chat: any
  let email: any
  const widget = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; token?: string } = {}) => widgetRequest(h, chat, SITE, method, path, opts)
  const visitor = async (profile: { email?: string; name?: string }, text: string) => {
    const s = await ok(widget('POST', '/session', { body: profile }))
    const sent = await ok(widget('POST', '/messages', { token: s.token, body: { client_id: `c-${Math.random().toString(36).slice(2, 12)}`, text } }), 201)
    return { token: s.token as string, visitorId: s.visitor.id as string, conv: sent.conversation_id as string }
  }
  const followups = (conv: string) => h.app.kernel.db.selectFrom('channel_web_followups').selectAll().where('conversation_id', '=', conv).orderBy('message_id').execute()
  const mailsTo = (address: string) => sink.mails.filter((m) => m.envelope.to.includes(address))

  before(async () => {
    sink = await startSmtpSink()
    h = await channelsApp({ SMTP_LISTEN_PORT: '0', SMTP_LISTEN_HOST: '127.0.0.1', SMTP_HOSTNAME: 'mx.shop.test', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    smtpPort = h.app.services.channels.email.smtp.port()!
    email = await ok(
      post(h, '/channels', { type: 'email', name: 'Shop support', email: { address: 'help@shop.test', from_name: 'Shop Support', relay: { host: '127.0.0.1', port: sink.port, secure: false } } }),
      201,
    )
    chat = await newChannel(h, {
      type: 'web_chat',
      name: 'Shop chat',
      phone_number: undefined,
      web_chat: { allowed_origins: [SITE], email_followup: { email_channel_id: email.id, after_minutes: 10 } },
    })
  })
  after(async () => {
    await h.close()
    await sink.close()
  })

  it('shows the setting; refuses a channel that is not an email channel of this workspace', async () => {
    assert.deepEqual(chat.web_chat.email_followup, { email_channel_id: email.id, after_minutes: 10, chat_url: null })
    const sms = await newChannel(h)
    assertProblem(await patch(h, `/channels/${chat.id}`, { web_chat: { email_followup: { email_channel_id: sms.id, after_minutes: 5 } } }), 422, 'validation_failed')
    assertProblem(await patch(h, `/channels/${chat.id}`, { web_chat: { email_followup: { email_channel_id: 'chn_01JD0000000000000000000000', after_minutes: 5 } } }), 422, 'validation_failed')
    assertProblem(await patch(h, `/channels/${chat.id}`, { web_chat: { email_followup: { email_channel_id: email.id, after_minutes: 0 } } }), 422, 'validation_failed')
    const other = await newChannel(h, { type: 'email', name: 'Other workspace', phone_number: undefined, email: { address: 'b@other.test' } }, h.b.live)
    assertProblem(await patch(h, `/channels/${chat.id}`, { web_chat: { email_followup: { email_channel_id: other.id, after_minutes: 5 } } }), 422, 'validation_failed')
  })

  it('an unseen reply goes by e-mail after the delay (the waiting ones in one mail), once; the answer lands in the same conversation', async () => {
    const v = await visitor({ email: 'Ann@Example.net', name: 'Ann' }, 'Can I change my delivery address?')
    const one = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Yes: which address should it go to?' }), 201)
    await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'internal: check the courier', private: true }), 201)
    const two = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Details here: https://shop.test/help/address' }), 201)
    await h.drainJobs()
    assert.deepEqual(mailsTo('ann@example.net'), [], 'not before the delay')
    assert.deepEqual(
      (await followups(v.conv)).map((f) => [f.message_id, f.status]),
      [
        [one.id, 'pending'],
        [two.id, 'pending'],
      ],
      'one row per reply, none for the private note',
    )
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    const mails = mailsTo('ann@example.net')
    assert.equal(mails.length, 1, 'both replies in one mail')
    const mail = mails[0].parsed
    assert.equal(mail.from?.value[0].address, 'help@shop.test')
    assert.equal(mail.subject, 'Your chat with Shop chat')
    assert.match(mail.text ?? '', /which address should it go to\?[\s\S]*https:\/\/shop.test\/help\/address/)
    assert.doesNotMatch(mail.text ?? '', /internal/)
    assert.match(mail.text ?? '', new RegExp(`${SITE}#svc-chat`), 'a link back to the chat')
    assert.equal(mail.messageId, `<${one.id.toLowerCase()}@mx.shop.test>`)
    const replyTo = mail.replyTo?.value[0].address ?? ''
    assert.match(replyTo, /^help\+r[0-9a-f]{24}@shop\.test$/)
    assert.deepEqual(
      (await followups(v.conv)).map((f) => f.status),
      ['sent', 'sent'],
    )
    // Never twice: the jobs again, later, send nothing more.
    h.clock.advance(60 * MINUTE)
    await h.drainJobs()
    assert.equal(mailsTo('ann@example.net').length, 1)

    // Ann answers the mail from her mail program: it threads into the chat's conversation.
    const answered = await sendInto(smtpPort, {
      from: 'Ann <ann@example.net>',
      to: replyTo,
      subject: `Re: ${mail.subject}`,
      inReplyTo: mail.messageId,
      references: [mail.messageId!],
      text: 'To 5 Rue de la Paix, please.',
    })
    assert.equal(answered.ok, true, JSON.stringify(answered))
    const thread = (await ok(get(h, `/inbox/conversations/${v.conv}/messages?order=asc`))).data
    assert.deepEqual(thread.at(-1).direction, 'inbound')
    assert.match(thread.at(-1).content, /Rue de la Paix/)
    assert.equal((await ok(get(h, `/inbox/conversations?channel=chat`))).data.filter((c: any) => c.contact.email === 'ann@example.net').length, 1, 'no second conversation')
    // The agent's next unseen reply follows the same thread: "Re:", In-Reply-To the mail before.
    await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Done, it is changed.' }), 201)
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    const next = mailsTo('ann@example.net').at(-1)!.parsed
    assert.equal(next.subject, 'Re: Your chat with Shop chat')
    assert.ok(next.inReplyTo, 'threaded')
    assert.match(next.text ?? '', /Done, it is changed/)
  })

  it('the replies waiting for one visitor go in one mail even when their jobs run at once (on PostgreSQL, on two connections)', async () => {
    const visitors = []
    for (let i = 0; i < 6; i++) {
      const v = await visitor({ email: `many${i}@example.net` }, `Question ${i}`)
      for (const text of ['First answer', 'Second answer', 'Third answer']) await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: `${text} ${i}` }), 201)
      visitors.push(v)
    }
    h.clock.advance(10 * MINUTE + 1000)
    // The 18 jobs are claimed together and run side by side (drainJobs runs a claimed batch at once).
    await h.drainJobs()
    for (let i = 0; i < 6; i++) {
      const mails = mailsTo(`many${i}@example.net`)
      assert.equal(mails.length, 1, `visitor ${i}: one mail`)
      assert.match(mails[0].parsed.text ?? '', new RegExp(`First answer ${i}[\\s\\S]*Second answer ${i}[\\s\\S]*Third answer ${i}`))
      assert.deepEqual(
        (await followups(visitors[i].conv)).map((f) => f.status),
        ['sent', 'sent', 'sent'],
      )
    }
  })

  it('a reply the visitor reads in the widget first is not mailed; a visitor without an address gets none', async () => {
    const v = await visitor({ email: 'reader@example.net' }, 'Hello?')
    const reply = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Hi, how can I help?' }), 201)
    await h.drainJobs()
    await ok(widget('POST', '/read', { token: v.token, body: { message_id: reply.id } }))
    assert.deepEqual(
      (await followups(v.conv)).map((f) => [f.status, f.outcome]),
      [['cancelled', 'read']],
    )
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    assert.deepEqual(mailsTo('reader@example.net'), [])
    // A visitor who gave no address gets no row at all.
    const anonymous = await visitor({}, 'No e-mail from me')
    await ok(post(h, `/inbox/conversations/${anonymous.conv}/messages`, { content: 'Hello stranger' }), 201)
    await h.drainJobs()
    assert.deepEqual(await followups(anonymous.conv), [])
  })

  it('a run that finds its reply mid-send (the worker died while the relay had it) does not send it again', async () => {
    const v = await visitor({ email: 'crash@example.net' }, 'Anyone?')
    const reply = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Yes, here.' }), 201)
    // What a worker killed between the claim and the relay's answer leaves behind.
    await h.app.kernel.db.updateTable('channel_web_followups').set({ status: 'sending' }).where('message_id', '=', reply.id).execute()
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    assert.deepEqual(mailsTo('crash@example.net'), [])
    assert.deepEqual(
      (await followups(v.conv)).map((f) => [f.status, f.outcome]),
      [['failed', 'outcome_unknown']],
    )
  })

  it('a relay refusing for now is asked again later; a visitor who reads meanwhile gets no mail', async () => {
    const v = await visitor({ email: 'later@example.net' }, 'Question')
    const reply = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Answer' }), 201)
    sink.failNext(451)
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    assert.deepEqual(mailsTo('later@example.net'), [])
    assert.deepEqual(
      (await followups(v.conv)).map((f) => f.status),
      ['pending'],
      'back to waiting',
    )
    await ok(widget('POST', '/read', { token: v.token, body: { message_id: reply.id } }))
    h.clock.advance(5 * MINUTE)
    await h.drainJobs()
    assert.deepEqual(mailsTo('later@example.net'), [])
    assert.deepEqual(
      (await followups(v.conv)).map((f) => [f.status, f.outcome]),
      [['cancelled', 'read']],
    )
    // Unread, the retry sends it once the relay takes mail again.
    const w = await visitor({ email: 'retry@example.net' }, 'Another question')
    await ok(post(h, `/inbox/conversations/${w.conv}/messages`, { content: 'Another answer' }), 201)
    sink.failNext(451)
    h.clock.advance(10 * MINUTE + 1000)
    await h.drainJobs()
    assert.deepEqual(mailsTo('retry@example.net'), [])
    h.clock.advance(MINUTE)
    await h.drainJobs()
    assert.equal(mailsTo('retry@example.net').length, 1)
    assert.deepEqual(
      (await followups(w.conv)).map((f) => f.status),
      ['sent'],
    )
  })
})
