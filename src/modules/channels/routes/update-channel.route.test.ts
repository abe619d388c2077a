import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { appWithTwilio, assertProblem, events, get, newChannel, ok, patch, type TwilioMessaging } from '../channels.testkit.js'

describe('getChannel / updateChannel', () => {
  let h: TestApp
  let tw: TwilioMessaging
  let close: () => Promise<void>
  before(async () => ({ h, tw, close } = await appWithTwilio()))
  after(() => close())

  it('renames a channel and keeps the stored token when the same account comes without one', async () => {
    const c = await newChannel(h, { provider: 'twilio', credentials: tw.credentials })
    const sealed = async () => (await h.app.kernel.db.selectFrom('channels').select('auth_token_sealed').where('id', '=', c.id).executeTakeFirstOrThrow()).auth_token_sealed
    const before = await sealed()
    const renamed = await ok(patch(h, `/channels/${c.id}`, { name: 'Sales SMS', credentials: { account_sid: tw.accountSid, base_url: tw.url } }))
    assert.equal(renamed.name, 'Sales SMS')
    assert.equal(await sealed(), before, 'the token is kept')
    assert.deepEqual(await ok(get(h, `/channels/${c.id}`)), renamed)
    // Another account needs its own token.
    assertProblem(await patch(h, `/channels/${c.id}`, { credentials: { account_sid: 'AC' + 'f'.repeat(32) } }), 422, 'validation_failed')
    const updates = (await events(h, 'channel.updated')).filter((e) => e.id === c.id)
    assert.deepEqual(
      updates.map((e) => e.name),
      ['Sales SMS'],
    )
    // Nothing changed: no event.
    await ok(patch(h, `/channels/${c.id}`, { name: 'Sales SMS' }))
    assert.equal((await events(h, 'channel.updated')).filter((e) => e.id === c.id).length, 1)
  })

  it('bad input: unknown bot 422, unknown field 422, credentials on a simulated channel 422; another workspace’s channel is 404', async () => {
    const c = await newChannel(h)
    assertProblem(await patch(h, `/channels/${c.id}`, { bot_id: 'bot_01JD0000000000000000000000' }), 422, 'invalid_reference')
    assertProblem(await patch(h, `/channels/${c.id}`, { phone_number: '+14155550100' }), 422, 'validation_failed')
    assertProblem(await patch(h, `/channels/${c.id}`, { credentials: tw.credentials }), 422, 'validation_failed')
    assert.deepEqual(await ok(get(h, `/channels/${c.id}`)), c, 'nothing changed')
    const theirs = await newChannel(h, {}, h.b.live)
    assertProblem(await get(h, `/channels/${theirs.id}`), 404, 'resource_not_found')
    assertProblem(await patch(h, `/channels/${theirs.id}`, { name: 'Mine now' }), 404, 'resource_not_found')
    assertProblem(await get(h, '/channels/chn_01JD0000000000000000000000'), 404, 'resource_not_found')
    // The sandbox does not see live channels.
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/channels/${c.id}`, key: h.a.test }), 404, 'resource_not_found')
  })
})
