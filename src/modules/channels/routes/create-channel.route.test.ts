import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, get, newChannel, ok, post, startTwilioMessaging, type TwilioMessaging } from '../channels.test-support.js'

describe('createChannel', () => {
  let h: TestApp
  let tw: TwilioMessaging
  before(async () => {
    h = await createTestApp()
    tw = await startTwilioMessaging()
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('creates a simulated SMS channel by default, with the webhook URLs to give Twilio', async () => {
    const c = await newChannel(h, { name: 'Front desk', phone_number: '+14155550101' })
    assert.match(c.id, /^chn_/)
    assert.deepEqual(
      { type: c.type, name: c.name, phone_number: c.phone_number, provider: c.provider, bot_id: c.bot_id, credentials: c.credentials },
      { type: 'sms', name: 'Front desk', phone_number: '+14155550101', provider: 'simulated', bot_id: null, credentials: { account_sid: null, auth_token_set: false, base_url: null } },
    )
    assert.equal(c.webhooks.messages_url, `${h.config.publicUrl}/channels/${c.id}/twilio/messages`)
    assert.equal(c.webhooks.status_url, `${h.config.publicUrl}/channels/${c.id}/twilio/status`)
    assert.deepEqual(await ok(get(h, `/channels/${c.id}`)), c)
    assert.ok((await events(h, 'channel.created')).some((e) => e.id === c.id))
  })

  it('a Twilio WhatsApp channel keeps its auth token sealed at rest and never shows it', async () => {
    const c = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550102', provider: 'twilio', credentials: tw.credentials })
    assert.deepEqual(c.credentials, { account_sid: tw.accountSid, auth_token_set: true, base_url: tw.url })
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
    const sandbox = await h.request({ method: 'POST', url: '/sandbox/v2/channels', key: h.a.test, payload: { type: 'sms', name: 'x', phone_number: '+14155550104', provider: 'twilio', credentials: tw.credentials } })
    assertProblem(sandbox, 422, 'validation_failed')
    const simulated = await h.request({ method: 'POST', url: '/sandbox/v2/channels', key: h.a.test, payload: { type: 'sms', name: 'x', phone_number: '+14155550104' } })
    assert.equal(simulated.statusCode, 201)
  })
})
