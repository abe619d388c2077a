import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { request as httpRequest } from 'undici'
import { buildApp, type App } from '../../../app.js'
import { startChatServer, type ChatReply } from '../../../kernel/ai/ai.testkit.js'
import { ENGINE, REDIS_URL } from '../../../../test/helpers.js'
import { BotDraft, DRAFT_SIGNAL } from './web-chat.drafts.js'
import { channelsApp, newChannel, ok, post, type ChannelsApp } from '../channels.testkit.js'

const SITE = 'https://shop.example.com'

/** A visitor's open stream (GET …/stream), its events parsed as they come. */
async function openStream(h: ChannelsApp, key: string, token: string) {
  const port = new URL(h.config.publicUrl).port
  const res = await httpRequest(`http://127.0.0.1:${port}/widget/v1/channels/${key}/stream?token=${encodeURIComponent(token)}`, { headers: { origin: SITE } })
  assert.equal(res.statusCode, 200)
  const events: { event: string; data: any }[] = []
  let buffer = ''
  const waiting = new Set<() => void>()
  void (async () => {
    try {
      for await (const chunk of res.body) {
        buffer += chunk.toString()
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          const event = /^event: (.+)$/m.exec(block)?.[1]
          const data = /^data: (.+)$/m.exec(block)?.[1]
          if (event && data) events.push({ event, data: JSON.parse(data) })
        }
        for (const w of waiting) w()
      }
    } catch {
      // destroyed by the test
    }
  })()
  /** Waits until `done` holds of the events so far (at most 10 s). */
  const until = async (done: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(events)}`)
      await new Promise<void>((r) => {
        waiting.add(r)
        setTimeout(r, 50)
      })
      waiting.clear()
    }
  }
  await until(() => events.some((e) => e.event === 'ready'), 'no ready event')
  return { events, until, close: () => res.body.destroy() }
}

async function chatSetup(h: ChannelsApp, bot: { id: string }) {
  const channel = await newChannel(h, { type: 'web_chat', name: 'Site chat', phone_number: undefined, bot_id: bot.id, web_chat: { allowed_origins: [SITE] } })
  const key: string = channel.web_chat.public_key
  const widget = (method: 'GET' | 'POST', path: string, token?: string, body?: object) =>
    h.request({ method, url: `/widget/v1/channels/${key}${path}`, key: null, headers: { origin: SITE, ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body ? { payload: body } : {}) })
  const session = async () => ok(widget('POST', '/session', undefined, {}))
  const say = async (token: string, clientId: string, text: string) => ok(widget('POST', '/messages', token, { client_id: clientId, text }), 201)
  return { key, widget, session, say }
}

/**
 * The channel bot's reply on a web chat while it is written: `draft` events on the visitor's stream, then
 * the message, and the draft's end naming that message; nothing of it on another visitor's stream.
 */
describe('web chat: the bot’s reply streams to the visitor’s widget as a draft', () => {
  describe('builtin engine', () => {
    let h: ChannelsApp
    let chat: Awaited<ReturnType<typeof chatSetup>>
    before(async () => {
      h = await channelsApp()
      const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
      await ok(
        post(h, `/knowledge/bases/${kb.id}/documents`, {
          title: 'Shipping times',
          text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
        }),
        202,
      )
      await h.drainJobs()
      const bot = await ok(post(h, '/bots', { name: 'Site bot', knowledge_base_ids: [kb.id], channels: ['chat'] }), 201)
      await ok(post(h, `/bots/${bot.id}/publish`))
      chat = await chatSetup(h, bot)
    })
    after(() => h.close())

    it('the visitor sees the draft, then the message replacing it; another visitor sees neither', async () => {
      const other = await chat.session()
      await chat.say(other.token, 'o1-aaaaaaaa', 'Hello, do you ship to Spain?')
      await h.drainJobs()
      const s = await chat.session()
      const mine = await openStream(h, chat.key, s.token)
      const theirs = await openStream(h, chat.key, other.token)
      const sent = await chat.say(s.token, 'd1-aaaaaaaa', 'How long does delivery take to France?')
      await h.drainJobs()
      await mine.until(() => mine.events.some((e) => e.event === 'message' && e.data.from === 'bot'), 'no bot message')
      await mine.until(() => mine.events.some((e) => e.event === 'draft' && e.data.done), 'no end of the draft')
      const drafts = mine.events.filter((e) => e.event === 'draft')
      const pieces = drafts.filter((e) => !e.data.done)
      assert.ok(pieces.length >= 1, JSON.stringify(mine.events))
      // The builtin engine answers at once: one piece, the whole answer (markers and all), before the message.
      assert.deepEqual([pieces[0].data.conversation_id, pieces[0].data.offset], [sent.conversation_id, 0])
      assert.match(pieces[0].data.text, /two to four working days/)
      assert.match(pieces[0].data.draft_id, /^drf_[0-9a-f]{24}$/)
      const message = mine.events.find((e) => e.event === 'message' && e.data.from === 'bot')!
      assert.ok(mine.events.indexOf(pieces[0]) < mine.events.indexOf(message), 'the draft comes before the message')
      const end = drafts.find((e) => e.data.done)!
      assert.deepEqual([end.data.done, end.data.message_id, end.data.draft_id], ['posted', message.data.id, pieces[0].data.draft_id])
      assert.equal(mine.events.filter((e) => e.event === 'message' && e.data.from === 'bot').length, 1)
      // The other visitor's stream had the same workspace's signals, and showed none of them.
      await new Promise((r) => setTimeout(r, 200))
      assert.deepEqual(
        theirs.events.filter((e) => e.event === 'draft' || e.data.conversation_id === sent.conversation_id),
        [],
      )
      // Running the jobs again posts nothing and drafts nothing.
      const before = mine.events.length
      await h.drainJobs()
      await new Promise((r) => setTimeout(r, 200))
      assert.equal(mine.events.length, before)
      mine.close()
      theirs.close()
    })
  })

  describe('OpenAI-compatible engine (stream: true)', () => {
    const ANSWER = 'Orders ship from Lyon and arrive in two to four working days in France, and within ten days abroad.'
    let h: ChannelsApp
    let model: Awaited<ReturnType<typeof startChatServer>>
    let script = (): ChatReply => ({ text: ANSWER, chunkDelayMs: 40 })
    let chat: Awaited<ReturnType<typeof chatSetup>>
    before(async () => {
      model = await startChatServer(() => script())
      h = await channelsApp({ AI_PROVIDER: 'openai', AI_BASE_URL: model.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '10000' })
      const bot = await ok(post(h, '/bots', { name: 'Streaming bot', channels: ['chat'], handoff: { confidence_threshold: 0 } }), 201)
      await ok(h.request({ method: 'PATCH', url: `/v2/bots/${bot.id}/guardrails`, payload: { answer_only_when_grounded: false } }))
      await ok(post(h, `/bots/${bot.id}/publish`))
      chat = await chatSetup(h, bot)
    })
    after(async () => {
      await h.close()
      await model.close()
    })

    it('the text grows piece by piece as the model writes, then the message replaces it', async () => {
      const s = await chat.session()
      const mine = await openStream(h, chat.key, s.token)
      await chat.say(s.token, 'd2-bbbbbbbb', 'How long does delivery take?')
      await h.drainJobs()
      await mine.until(() => mine.events.some((e) => e.event === 'draft' && e.data.done === 'posted'), 'no end of the draft')
      await mine.until(() => mine.events.some((e) => e.event === 'message' && e.data.from === 'bot'), 'no bot message')
      assert.equal(model.requests.at(-1).stream, true)
      const pieces = mine.events.filter((e) => e.event === 'draft' && !e.data.done).map((e) => e.data)
      // Several signals (coalesced, not one per token), each the whole draft so far: growing, each a start of the answer.
      assert.ok(pieces.length >= 3, JSON.stringify(pieces))
      assert.ok(pieces.length < ANSWER.split(' ').length, 'pieces are coalesced')
      for (let i = 0; i < pieces.length; i++) {
        assert.equal(pieces[i].offset, 0)
        assert.ok(ANSWER.startsWith(pieces[i].text), pieces[i].text)
        if (i > 0) assert.ok(pieces[i].text.length > pieces[i - 1].text.length)
      }
      assert.ok(pieces[0].text.length < ANSWER.length / 2, 'the first piece is shown early')
      const message = mine.events.find((e) => e.event === 'message' && e.data.from === 'bot')!
      assert.equal(message.data.text, ANSWER)
      assert.ok(mine.events.findIndex((e) => e.event === 'draft') < mine.events.indexOf(message))
      mine.close()
    })

    it('a model that breaks off mid-answer: the draft shown so far is replaced by the hand-off message, once', async () => {
      script = () => ({ text: ANSWER, chunkDelayMs: 20, breakAfter: 6 })
      const s = await chat.session()
      const mine = await openStream(h, chat.key, s.token)
      await chat.say(s.token, 'd3-cccccccc', 'And abroad?')
      await h.drainJobs()
      await mine.until(() => mine.events.some((e) => e.event === 'draft' && e.data.done === 'posted'), 'no end of the draft')
      await mine.until(() => mine.events.some((e) => e.event === 'message' && e.data.from === 'bot'), 'no bot message')
      const pieces = mine.events.filter((e) => e.event === 'draft' && !e.data.done).map((e) => e.data)
      assert.ok(pieces.length >= 1 && ANSWER.startsWith(pieces.at(-1).text), JSON.stringify(pieces))
      const messages = mine.events.filter((e) => e.event === 'message' && e.data.from === 'bot').map((e) => e.data)
      assert.equal(messages.length, 1)
      assert.doesNotMatch(messages[0].text, /Orders ship/, 'the fallback, not the broken draft')
      assert.equal(mine.events.find((e) => e.event === 'draft' && e.data.done)!.data.message_id, messages[0].id)
      mine.close()
    })
  })

  describe('across processes: the bot in a worker, the visitor’s stream on an API node', () => {
    let h: ChannelsApp
    let worker: App
    let chat: Awaited<ReturnType<typeof chatSetup>>
    // The feed's bus between them: PostgreSQL NOTIFY on PostgreSQL; on SQLite, Redis pub/sub (REDIS_URL).
    const bus = ENGINE === 'postgres' ? 'postgres' : 'redis'
    before(async () => {
      h = await channelsApp(bus === 'redis' ? { REDIS_URL, EVENT_FEED_BUS: 'redis' } : {})
      const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
      await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Returns', text: 'Returns are free within thirty days of delivery. Print the label from your account.' }), 202)
      await h.drainJobs()
      const bot = await ok(post(h, '/bots', { name: 'Site bot', knowledge_base_ids: [kb.id], channels: ['chat'] }), 201)
      await ok(post(h, `/bots/${bot.id}/publish`))
      chat = await chatSetup(h, bot)
      worker = await buildApp({ config: { ...h.config, role: 'worker' }, database: h.app.kernel.database, clock: h.clock })
    })
    after(async () => {
      await worker?.close()
      await h.close()
    })

    it('the worker’s draft reaches the visitor’s stream on the other node, then the message', async () => {
      assert.deepEqual([h.app.kernel.feed.busName, worker.kernel.feed.busName], [bus, bus])
      const s = await chat.session()
      const mine = await openStream(h, chat.key, s.token)
      await chat.say(s.token, 'd4-dddddddd', 'Are returns free?')
      await worker.kernel.jobs.drain()
      await mine.until(() => mine.events.some((e) => e.event === 'draft' && e.data.done === 'posted'), 'no end of the draft')
      await mine.until(() => mine.events.some((e) => e.event === 'message' && e.data.from === 'bot'), 'no bot message')
      const piece = mine.events.find((e) => e.event === 'draft' && !e.data.done)!
      assert.match(piece.data.text, /thirty days/)
      const message = mine.events.find((e) => e.event === 'message' && e.data.from === 'bot')!
      assert.equal(mine.events.find((e) => e.event === 'draft' && e.data.done)!.data.message_id, message.data.id)
      mine.close()
    })
  })

  describe('the draft’s signals (BotDraft on the kernel’s feed)', () => {
    let h: ChannelsApp
    before(async () => {
      h = await channelsApp()
    })
    after(() => h.close())

    it('coalesces pieces, carries the whole text while short and only what is new past 2,000 characters; a discarded draft says so once', async () => {
      const tenant = { workspaceId: h.a.workspaceId, mode: 'live' as const }
      const got: any[] = []
      const stop = h.app.kernel.feed.subscribe(tenant, { event: () => undefined, signal: (name, data) => name === DRAFT_SIGNAL && got.push(data) })
      const other: any[] = []
      const stopOther = h.app.kernel.feed.subscribe({ workspaceId: h.b.workspaceId, mode: 'live' }, { event: () => undefined, signal: (_n, d) => other.push(d) })
      const draft = new BotDraft(h.app.kernel, tenant, 'cnv_x', 'chn_1:wc:vis_1:c1')
      assert.equal(draft.id, new BotDraft(h.app.kernel, tenant, 'cnv_x', 'chn_1:wc:vis_1:c1').id, 'a retry writes into the same draft')
      draft.push('Hello ')
      assert.deepEqual(got, [{ object: 'widget_draft', conversation_id: 'cnv_x', draft_id: draft.id, offset: 0, text: 'Hello ' }], 'the first piece at once')
      for (let i = 0; i < 50; i++) draft.push('word ')
      assert.equal(got.length, 1, 'the rest waits for the next flush')
      await new Promise((r) => setTimeout(r, 200))
      assert.equal(got.length, 2)
      assert.deepEqual([got[1].offset, got[1].text.length], [0, 6 + 250])
      draft.push('x'.repeat(2_000))
      await new Promise((r) => setTimeout(r, 200))
      assert.deepEqual([got[2].offset, got[2].text.length], [256, 2_000], 'past 2,000 characters only what is new')
      draft.push('late')
      draft.discard()
      draft.discard()
      draft.posted('msg_x')
      await new Promise((r) => setTimeout(r, 200))
      assert.deepEqual(got.slice(3), [{ object: 'widget_draft', conversation_id: 'cnv_x', draft_id: draft.id, done: 'discarded', message_id: null }])
      // A draft that showed nothing ends without a word.
      new BotDraft(h.app.kernel, tenant, 'cnv_y', 'chn_1:wc:vis_1:c2').discard()
      assert.equal(got.length, 4)
      assert.deepEqual(other, [], 'another workspace hears nothing')
      stop()
      stopOther()
    })
  })
})
