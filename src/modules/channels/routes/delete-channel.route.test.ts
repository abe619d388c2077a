import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, get, newChannel, ok, post } from '../channels.testkit.js'

describe('deleteChannel', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('deletes the channel; its conversation stays, and a reply in it is not sent (channel_deleted)', async () => {
    const c = await newChannel(h)
    const inbound = await ok(post(h, `/channels/${c.id}/simulated-messages`, { from: '+14155550150', body: 'Hi there' }))
    assert.deepEqual(await ok(h.request({ method: 'DELETE', url: `/v2/channels/${c.id}` })), { id: c.id, object: 'channel', deleted: true })
    assertProblem(await get(h, `/channels/${c.id}`), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'DELETE', url: `/v2/channels/${c.id}` }), 404, 'resource_not_found')
    assert.ok((await events(h, 'channel.deleted')).some((e) => e.id === c.id))
    await ok(get(h, `/inbox/conversations/${inbound.conversation_id}`))
    const reply = await ok(post(h, `/inbox/conversations/${inbound.conversation_id}/messages`, { content: 'Hello!' }), 201)
    await h.drainJobs()
    const [latest] = (await ok(get(h, `/inbox/conversations/${inbound.conversation_id}/messages`))).data
    assert.equal(latest.id, reply.id)
    assert.equal(latest.delivery.status, 'failed')
    assert.equal(latest.delivery.error_code, 'channel_deleted')
  })

  it('a web chat channel: its visitors go with it and its public key answers 404', async () => {
    const c = await newChannel(h, { type: 'web_chat', phone_number: undefined, web_chat: { allowed_origins: ['https://shop.example.com'] } })
    const widget = (path: string) => h.request({ method: 'POST', url: `/widget/v1/channels/${c.web_chat.public_key}${path}`, key: null, headers: { origin: 'https://shop.example.com' }, payload: {} })
    assert.equal((await widget('/session')).statusCode, 200)
    const visitors = () => h.app.kernel.db.selectFrom('channel_web_visitors').select('id').where('channel_id', '=', c.id).execute()
    assert.equal((await visitors()).length, 1)
    await ok(h.request({ method: 'DELETE', url: `/v2/channels/${c.id}` }))
    assert.deepEqual(await visitors(), [])
    assertProblem(await widget('/session'), 404, 'resource_not_found')
  })

  it('another workspace’s channel is 404 and stays', async () => {
    const theirs = await newChannel(h, {}, h.b.live)
    assertProblem(await h.request({ method: 'DELETE', url: `/v2/channels/${theirs.id}` }), 404, 'resource_not_found')
    await ok(get(h, `/channels/${theirs.id}`, h.b.live))
  })
})
