import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { appWithTwilio, assertProblem, events, get, newChannel, ok, patch, post, type TwilioMessaging } from '../channels.testkit.js'

describe('createChannel', () => {
  let h: TestApp
  let tw: TwilioMessaging
  let close: () => Promise<void>
  before(async () => ({ h, tw, close } = await appWithTwilio()))
  after(() => close())

  it('creates a simulated SMS channel by default, with the webhook URLs to give Twilio', async () => {
    const c = await newChannel(h, { name: 'Front desk', phone_number: '+14155550101' })
    assert.match(c.id, /^chn_/)
    assert.deepEqual(
      { type: c.type, name: c.name, phone_number: c.phone_number, provider: c.provider, bot_id: c.bot_id, credentials: c.credentials },
      {
        type: 'sms',
        name: 'Front desk',
        phone_number: '+14155550101',
        provider: 'simulated',
        bot_id: null,
        credentials: { account_sid: null, auth_token_set: false, base_url: null, messaging_service_sid: null },
      },
    )
    assert.equal(c.webhooks.messages_url, `${h.config.publicUrl}/channels/${c.id}/twilio/messages`)
    assert.equal(c.webhooks.status_url, `${h.config.publicUrl}/channels/${c.id}/twilio/status`)
    assert.deepEqual(await ok(get(h, `/channels/${c.id}`)), c)
    assert.ok((await events(h, 'channel.created')).some((e) => e.id === c.id))
  })

  it('a Twilio WhatsApp channel keeps its auth token sealed at rest and never shows it', async () => {
    const c = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550102', provider: 'twilio', credentials: tw.credentials })
    assert.deepEqual(c.credentials, { account_sid: tw.accountSid, auth_token_set: true, base_url: tw.url, messaging_service_sid: null })
    assert.ok(!JSON.stringify(c).includes(tw.authToken))
    const row = await h.app.kernel.db.selectFrom('channels').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow()
    assert.ok(row.auth_token_sealed && !row.auth_token_sealed.includes(tw.authToken), 'sealed')
    assert.equal(h.app.kernel.secrets.open(row.auth_token_sealed, `${c.id}:auth_token`), tw.authToken)
  })

  it('bad input: 422 with pointers, unknown bot 422 invalid_reference, a number taken 409, twilio in the sandbox 422', async () => {
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '4155550100' }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'web_chat', name: 'x', phone_number: '+14155550100' }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550100', bot_id: 'bot_01JD0000000000000000000000' }), 422, 'invalid_reference')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550100', provider: 'twilio' }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550100', provider: 'twilio', credentials: { account_sid: tw.accountSid } }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550100', credentials: { account_sid: 'nope', auth_token: tw.authToken } }), 422, 'validation_failed')
    // A base URL the outbound policy refuses in every configuration (cloud metadata) is refused when saved.
    const metadata = await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550100', credentials: { ...tw.credentials, base_url: 'http://169.254.169.254' } })
    assertProblem(metadata, 422, 'validation_failed')
    assert.equal(JSON.parse(metadata.body).errors[0].pointer, '/body/credentials/base_url')
    await newChannel(h, { phone_number: '+14155550103' })
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'again', phone_number: '+14155550103' }), 409, 'channel_number_taken')
    // The same number as a WhatsApp sender is another channel; another workspace may use it too.
    await newChannel(h, { type: 'whatsapp', phone_number: '+14155550103' })
    await newChannel(h, { phone_number: '+14155550103' }, h.b.live)
    const sandbox = await h.request({
      method: 'POST',
      url: '/sandbox/v2/channels',
      key: h.a.test,
      payload: { type: 'sms', name: 'x', phone_number: '+14155550104', provider: 'twilio', credentials: tw.credentials },
    })
    assertProblem(sandbox, 422, 'validation_failed')
    const simulated = await h.request({ method: 'POST', url: '/sandbox/v2/channels', key: h.a.test, payload: { type: 'sms', name: 'x', phone_number: '+14155550104' } })
    assert.equal(simulated.statusCode, 201)
  })

  it('a web chat channel: public key, origins, theme, the identity secret sealed and shown once (rotatable)', async () => {
    const c = await newChannel(h, {
      type: 'web_chat',
      name: 'Site chat',
      phone_number: undefined,
      web_chat: { allowed_origins: ['https://Shop.example.com'], theme: { color: '#aa3300', greeting: 'Hi!' }, locale: 'de', identity_verification: true },
    })
    assert.equal(c.provider, 'widget')
    assert.equal(c.phone_number, null)
    assert.match(c.web_chat.public_key, /^wck_[0-9a-f]{24}$/)
    assert.deepEqual(c.web_chat.allowed_origins, ['https://shop.example.com'])
    assert.deepEqual(c.web_chat.theme, { color: '#aa3300', position: 'bottom-right', greeting: 'Hi!', avatar_url: null })
    assert.equal(c.web_chat.locale, 'de')
    assert.equal(c.web_chat.script_url, `${h.config.publicUrl}/widget/v1/widget.js`)
    // Twilio never calls a web chat channel: no Twilio URLs to configure.
    assert.equal(c.webhooks, null)
    assert.ok(c.web_chat.snippet.includes(`data-channel="${c.web_chat.public_key}"`))
    const secret = c.web_chat.identity_secret as string
    assert.match(secret, /^[0-9a-f]{64}$/)
    // Shown once: never on a read, in a list or in the event.
    const read = await ok(get(h, `/channels/${c.id}`))
    assert.equal(read.web_chat.identity_secret, undefined)
    assert.equal(read.web_chat.identity_secret_set, true)
    assert.ok(!JSON.stringify(await events(h, 'channel.created')).includes(secret))
    const row = await h.app.kernel.db.selectFrom('channels').selectAll().where('id', '=', c.id).executeTakeFirstOrThrow()
    assert.ok(row.widget_secret_sealed && !row.widget_secret_sealed.includes(secret), 'sealed')
    const rotated = await ok(patch(h, `/channels/${c.id}`, { web_chat: { rotate_identity_secret: true, theme: { position: 'bottom-left' } } }))
    assert.match(rotated.web_chat.identity_secret, /^[0-9a-f]{64}$/)
    assert.notEqual(rotated.web_chat.identity_secret, secret)
    assert.equal(rotated.web_chat.theme.position, 'bottom-left')
    assert.equal(rotated.web_chat.theme.color, '#aa3300')
    // Bad input: a phone number, credentials or another provider on web_chat; web_chat settings on SMS; an origin with a path.
    assertProblem(await post(h, '/channels', { type: 'web_chat', name: 'x', provider: 'simulated' }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'web_chat', name: 'x', credentials: tw.credentials }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x', phone_number: '+14155550109', web_chat: { locale: 'en' } }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'sms', name: 'x' }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'web_chat', name: 'x', web_chat: { allowed_origins: ['https://a.example/path'] } }), 422, 'validation_failed')
    assertProblem(await post(h, '/channels', { type: 'web_chat', name: 'x', web_chat: { theme: { color: 'red' } } }), 422, 'validation_failed')
  })
})
