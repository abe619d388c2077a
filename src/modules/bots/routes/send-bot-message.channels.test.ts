import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { botsApp, get, newBot, ok, post, say } from '../bots.testkit.js'

// Issue 32, point 4: citations are data; the message the customer reads is its channel's rendering of the
// reply (links on chat and email, a plain link on SMS), while the API's `content` keeps its markers.
describe('sendBotMessage: the customer reads the reply as their channel shows it', () => {
  let h: TestApp
  let bot: any
  const url = 'https://shop.example/help/shipping'
  before(async () => {
    h = await botsApp()
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
    const d = await ok(
      post(h, `/knowledge/bases/${kb.id}/documents`, {
        title: 'Shipping times',
        source_url: url,
        text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
      }),
      202,
    )
    for (let until = Date.now() + 20_000; (await ok(get(h, `/knowledge/documents/${d.id}`))).status !== 'ready';) {
      assert.ok(Date.now() < until, 'the document was not processed')
      await new Promise((r) => setTimeout(r, 50))
    }
    bot = await newBot(h, { knowledge_base_ids: [kb.id], channels: ['chat', 'email', 'sms'] })
    await ok(post(h, `/bots/${bot.id}/publish`))
  })
  after(() => h.close())

  async function exchange(channel: string) {
    const r = await ok(say(h, bot.id, 'How long does delivery take to France?', { channel }), 201)
    assert.equal(r.grounded, true, JSON.stringify(r))
    const messages = (await ok(get(h, `/inbox/conversations/${r.conversation_id}/messages`))).data
    const sent = messages.find((m: any) => m.id === r.message_id) ?? messages.at(-1)
    return { reply: r, sent: sent.content as string }
  }

  it('chat: the marker stays and leads to a Markdown link to the source', async () => {
    const { reply, sent } = await exchange('chat')
    assert.match(reply.content, /\[1\]/)
    assert.doesNotMatch(reply.content, /Sources:/)
    assert.match(sent, /working days/)
    assert.ok(sent.includes(`[Shipping times](${url})`), sent)
  })

  it('email: the source as "title (url)"', async () => {
    const { sent } = await exchange('email')
    assert.ok(sent.includes(`Shipping times (${url})`), sent)
  })

  it('sms: no marker, the link at the end', async () => {
    const { sent } = await exchange('sms')
    assert.doesNotMatch(sent, /\[1\]/)
    assert.ok(sent.trimEnd().endsWith(url), sent)
  })
})
