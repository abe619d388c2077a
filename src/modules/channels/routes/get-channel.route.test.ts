import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { appWithTwilio, assertProblem, get, newChannel, ok, post, type TwilioMessaging } from '../channels.testkit.js'

describe('getChannel (GET /channels/{id})', () => {
  let h: TestApp
  let tw: TwilioMessaging
  let close: () => Promise<void>
  before(async () => ({ h, tw, close } = await appWithTwilio()))
  after(() => close())

  it('answers the channel as created, with the webhook URLs to give the provider', async () => {
    const bot = await ok(post(h, '/bots', { name: 'SMS bot' }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const made = await newChannel(h, { name: 'Front desk', phone_number: '+14155550161', bot_id: bot.id })
    const got = await ok(get(h, `/channels/${made.id}`))
    assert.match(got.id, /^chn_/)
    assert.equal(got.object, 'channel')
    assert.equal(got.type, 'sms')
    assert.equal(got.name, 'Front desk')
    assert.equal(got.phone_number, '+14155550161')
    assert.equal(got.bot_id, bot.id)
    assert.equal(got.provider, 'simulated')
    assert.equal(got.webhooks.messages_url, `${h.config.publicUrl}/channels/${made.id}/twilio/messages`)
    assert.equal(got.webhooks.status_url, `${h.config.publicUrl}/channels/${made.id}/twilio/status`)
    assert.deepEqual(got, made)
  })

  it('shows the Twilio account but never the auth token', async () => {
    const made = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550162', provider: 'twilio', credentials: tw.credentials })
    const got = await ok(get(h, `/channels/${made.id}`))
    assert.equal(got.type, 'whatsapp')
    assert.equal(got.provider, 'twilio')
    assert.deepEqual(got.credentials, { account_sid: tw.accountSid, auth_token_set: true, base_url: tw.url, messaging_service_sid: null })
    assert.ok(!JSON.stringify(got).includes(tw.authToken))
  })

  it("another workspace's channel and an unknown id are 404; an over-long id is 422; the read scope is required", async () => {
    const made = await newChannel(h, { phone_number: '+14155550163' })
    assertProblem(await get(h, `/channels/${made.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/channels/chn_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/channels/${'c'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/channels/${made.id}`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await get(h, `/channels/${made.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
