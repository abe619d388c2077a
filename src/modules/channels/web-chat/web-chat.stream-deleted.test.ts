import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request as httpRequest } from 'undici'
import { channelsApp, get, newChannel, ok, type ChannelsApp, widgetRequest } from '../channels.testkit.js'

const SITE = 'https://shop.example.com'
const DAY = 86_400_000

// A visitor's stream is told when their conversation is deleted (the `messages` retention policy, an erasure): the
// widget then clears the thread, and the next message starts a new conversation. Another visitor's stream is not.
describe('the web chat stream when the conversation is deleted', () => {
  let h: ChannelsApp
  let channel: any
  const widget = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; token?: string } = {}) => widgetRequest(h, channel, SITE, method, path, opts)
  const visitor = async (text: string) => {
    const s = await ok(widget('POST', '/session', { body: {} }))
    const sent = await ok(widget('POST', '/messages', { token: s.token, body: { client_id: `c-${Math.random().toString(36).slice(2, 12)}`, text } }), 201)
    return { token: s.token as string, conv: sent.conversation_id as string }
  }
  /** The visitor's stream, read until `done` says so (or 5 s). */
  const stream = async (token: string) => {
    const port = new URL(h.config.publicUrl).port
    const res = await httpRequest(`http://127.0.0.1:${port}/widget/v1/channels/${channel.web_chat.public_key}/stream?token=${encodeURIComponent(token)}`, { headers: { origin: SITE } })
    assert.equal(res.statusCode, 200)
    let text = ''
    const read = (async () => {
      for await (const chunk of res.body) text += chunk.toString()
    })().catch(() => undefined)
    return {
      text: () => text,
      async until(pattern: RegExp, ms = 5000) {
        for (const t0 = Date.now(); !pattern.test(text); await new Promise((r) => setTimeout(r, 20))) if (Date.now() - t0 > ms) throw new Error(`no ${pattern}: ${text}`)
      },
      close: () => {
        res.body.destroy()
        return read
      },
    }
  }

  before(async () => {
    h = await channelsApp()
    channel = await newChannel(h, { type: 'web_chat', name: 'Site chat', phone_number: undefined, web_chat: { allowed_origins: [SITE] } })
  })
  after(() => h.close())

  it('sends `deleted` with the conversation to its visitor only; the next message starts a new conversation', async () => {
    const ann = await visitor('Where is my parcel?')
    // The app's clock is the test's: Bob writes a day later than Ann.
    h.clock.advance(DAY)
    const cutoff = new Date(h.clock.now().getTime() - 1000).toISOString()
    const bob = await visitor('Do you ship to Norway?')
    const annStream = await stream(ann.token)
    const bobStream = await stream(bob.token)
    await annStream.until(/event: ready\n/)
    await bobStream.until(/event: ready\n/)
    // The messages retention deletes Ann's conversation (its last activity is before the cutoff), not Bob's.
    const messages = h.app.kernel.modules.find((m) => m.name === 'inbox')!.retention!.find((c) => c.name === 'messages')!
    // (It counts the conversation and the older events that copy it.)
    assert.ok((await messages.purge(h.app.kernel, { workspaceId: h.a.workspaceId, mode: 'live' }, cutoff, 500)) >= 1)
    await annStream.until(/event: deleted\n/)
    assert.deepEqual(JSON.parse(/event: deleted\ndata: (.*)\n/.exec(annStream.text())![1]), { conversation_id: ann.conv })
    // Bob's stream heard nothing of it (a message of his own, after, arrives as usual).
    const later = await ok(widget('POST', '/messages', { token: bob.token, body: { client_id: 'c-bob-later', text: 'Still there?' } }), 201)
    await bobStream.until(/Still there\?/)
    assert.doesNotMatch(bobStream.text(), /event: deleted/)
    assert.equal(later.conversation_id, bob.conv)
    await Promise.all([annStream.close(), bobStream.close()])
    // Ann writes again: a new conversation, her history shows only it.
    await h.drainJobs()
    const again = await ok(widget('POST', '/messages', { token: ann.token, body: { client_id: 'c-ann-again', text: 'Hello again' } }), 201)
    assert.notEqual(again.conversation_id, ann.conv)
    assert.equal((await get(h, `/inbox/conversations/${ann.conv}`)).statusCode, 404)
    const history = await ok(widget('GET', '/messages', { token: ann.token }))
    assert.deepEqual(
      history.messages.map((m: any) => m.text),
      ['Hello again'],
    )
  })
})
