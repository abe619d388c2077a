import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request as httpRequest } from 'undici'
import { memberSession } from '../../inbox/inbox.testkit.js'
import { assertProblem, channelsApp, events, get, newChannel, ok, post, type ChannelsApp, widgetRequest } from '../channels.testkit.js'

const SITE = 'https://shop.example.com'

describe('web chat read receipts, both ways', () => {
  let h: ChannelsApp
  let channel: any
  let agent: { token: string; memberId: string }
  const widget = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; token?: string } = {}) => widgetRequest(h, channel, SITE, method, path, opts)
  const deliveryOf = async (conv: string, id: string) => (await ok(get(h, `/inbox/conversations/${conv}/messages?order=asc`))).data.find((m: any) => m.id === id).delivery

  /** A visitor who wrote once, and the conversation it made. */
  const visitorWithConversation = async (text: string) => {
    const s = await ok(widget('POST', '/session', { body: {} }))
    const sent = await ok(widget('POST', '/messages', { token: s.token, body: { client_id: `c-${Math.random().toString(36).slice(2, 12)}`, text } }), 201)
    return { token: s.token as string, visitorId: s.visitor.id as string, conv: sent.conversation_id as string, messageId: sent.message_id as string }
  }

  before(async () => {
    h = await channelsApp()
    agent = await memberSession(h, 'olga@example.com')
    channel = await newChannel(h, { type: 'web_chat', name: 'Site chat', phone_number: undefined, web_chat: { allowed_origins: [SITE] } })
  })
  after(() => h.close())

  it('the visitor reads replies: delivery read up to the newest seen, a message.updated event, never backwards', async () => {
    const v = await visitorWithConversation('Do you ship to Spain?')
    const one = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Yes, we do.' }), 201)
    const two = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'It takes about a week.' }), 201)
    await h.drainJobs()
    // The widget read the history (delivered), but the tab was hidden: not read yet.
    await ok(widget('GET', '/messages', { token: v.token }))
    assert.equal((await deliveryOf(v.conv, one.id)).status, 'delivered')
    const r = await ok(widget('POST', '/read', { token: v.token, body: { message_id: one.id } }))
    assert.deepEqual([r.object, r.read], ['widget_read', 1])
    assert.equal((await deliveryOf(v.conv, one.id)).status, 'read')
    assert.equal((await deliveryOf(v.conv, two.id)).status, 'delivered', 'only up to the message seen')
    const updates = (await events(h, 'message.updated')).filter((m: any) => m.id === one.id)
    assert.equal(updates.at(-1).delivery.status, 'read', 'the inbox sees it as an event')
    assert.equal((await ok(widget('POST', '/read', { token: v.token, body: { message_id: two.id } }))).read, 1)
    assert.equal((await deliveryOf(v.conv, two.id)).status, 'read')
    // Again, or an older one: nothing moves (read is the furthest state).
    assert.equal((await ok(widget('POST', '/read', { token: v.token, body: { message_id: one.id } }))).read, 0)
    assert.equal((await deliveryOf(v.conv, two.id)).status, 'read')
  })

  it('another visitor’s message, a private note, an unknown or malformed id are refused; no token is 401', async () => {
    const mine = await visitorWithConversation('Hello')
    const theirs = await visitorWithConversation('Hi there')
    const reply = await ok(post(h, `/inbox/conversations/${theirs.conv}/messages`, { content: 'For the other visitor' }), 201)
    const note = await ok(post(h, `/inbox/conversations/${mine.conv}/messages`, { content: 'internal', private: true }), 201)
    await h.drainJobs()
    assertProblem(await widget('POST', '/read', { token: mine.token, body: { message_id: reply.id } }), 404, 'resource_not_found')
    assert.equal((await deliveryOf(theirs.conv, reply.id)).status, 'sent', 'nothing changed')
    assertProblem(await widget('POST', '/read', { token: mine.token, body: { message_id: note.id } }), 404, 'resource_not_found')
    assertProblem(await widget('POST', '/read', { token: mine.token, body: { message_id: 'msg_01JD0000000000000000000000' } }), 404, 'resource_not_found')
    assertProblem(await widget('POST', '/read', { token: mine.token, body: { message_id: 'nope' } }), 422, 'validation_failed')
    assertProblem(await widget('POST', '/read', { token: mine.token, body: { message_id: reply.id, extra: 1 } }), 422, 'validation_failed')
    assertProblem(await widget('POST', '/read', { body: { message_id: reply.id } }), 401, 'unauthorized')
  })

  it('the team reads the visitor’s messages: the widget’s history says how far, and the stream says it live', async () => {
    const v = await visitorWithConversation('Is my parcel lost?')
    const before = await ok(widget('GET', '/messages', { token: v.token }))
    assert.equal(before.team_read_up_to, null, 'nobody has read it yet')
    const port = new URL(h.config.publicUrl).port
    const res = await httpRequest(`http://127.0.0.1:${port}/widget/v1/channels/${channel.web_chat.public_key}/stream?token=${encodeURIComponent(v.token)}`, { headers: { origin: SITE } })
    assert.equal(res.statusCode, 200)
    let text = ''
    const seen = (async () => {
      for await (const chunk of res.body) {
        text += chunk.toString()
        if (/event: read\n/.test(text)) return
      }
    })()
    // The agent opens the conversation in the dashboard (which marks it read for them).
    const marked = await h.request({ method: 'POST', url: `/v2/inbox/conversations/${v.conv}/read`, key: agent.token, payload: {} })
    assert.equal(marked.statusCode, 200, marked.body)
    await Promise.race([seen, new Promise((_, reject) => setTimeout(() => reject(new Error(`no read event: ${text}`)), 5000))])
    res.body.destroy()
    const read = JSON.parse(/event: read\ndata: (.*)\n/.exec(text)![1])
    assert.deepEqual([read.conversation_id, read.up_to], [v.conv, v.messageId])
    const after = await ok(widget('GET', '/messages', { token: v.token }))
    assert.equal(after.team_read_up_to, v.messageId)
    const back = await ok(widget('POST', '/session', { body: { token: v.token } }))
    assert.equal(back.team_read_up_to, v.messageId, 'a returning visitor sees it too')
    // Another visitor's stream and history know nothing of it.
    const other = await visitorWithConversation('Unrelated')
    assert.equal((await ok(widget('GET', '/messages', { token: other.token }))).team_read_up_to, null)
  })
})
