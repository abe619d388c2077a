import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createEndpoint, startReceiver, waitFor, type Receiver } from '../../webhooks/webhooks.testkit.js'
import { assertProblem, botsApp, ok } from '../bots.testkit.js'

// Testing a bot has no live side effects (issue 32, point 7): a test exchange writes nothing to the inbox
// and sends no event, so a real webhook receiver, the lead sync and the inbox's lists, counts and search
// never see it; the tester reads it back with getBotTestConversation. Each check is paired with a live
// exchange that does reach them, so the absence is not an accident of a pipeline that never runs. In the
// sandbox: webhook endpoints there may be plain http on 127.0.0.1.
describe('test exchanges (sendBotMessage test / version_id, getBotTestConversation)', () => {
  let h: TestApp
  let receiver: Receiver
  let bot: any
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, key?: string) =>
    h.request({ method, url: `/sandbox/v2${url}`, key: key ?? h.a.test, ...(payload === undefined ? {} : { payload: payload as object }) })
  const get = (url: string, key?: string) => call('GET', url, undefined, key)
  const post = (url: string, payload: unknown = {}) => call('POST', url, payload)
  const patch = (url: string, payload: unknown) => call('PATCH', url, payload)
  const say = (botId: string, content: string, extra: Record<string, unknown> = {}) => post(`/bots/${botId}/messages`, { content, ...extra })
  const newBot = async (payload: Record<string, unknown> = {}) => ok(post('/bots', { name: 'Support bot', ...payload }), 201)
  before(async () => {
    h = await botsApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' })
    receiver = await startReceiver()
    await createEndpoint(h, receiver.url)
    const kb = await ok(post('/knowledge/bases', { name: 'Help center' }), 201)
    const articles = [
      { title: 'Shipping times', text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.' },
      { title: 'Opening hours', text: 'Our support team answers Monday to Friday, from 9:00 to 17:00 CET, by chat and by e-mail.' },
    ]
    for (const a of articles) {
      const d = await ok(post(`/knowledge/bases/${kb.id}/documents`, a), 202)
      await waitFor(async () => (await ok(get(`/knowledge/documents/${d.id}`))).status === 'ready', 20_000, 'document processed')
    }
    bot = await newBot({ knowledge_base_ids: [kb.id] })
    await ok(post(`/bots/${bot.id}/publish`))
    await ok(patch(`/workspaces/${h.a.workspaceId}`, { lead_auto_create_score: 1 }))
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  /** Rows of the inbox's tables: what its lists, counts, unread marks and search read. */
  const inboxRows = async () => {
    const db = h.app.kernel.db
    return {
      conversations: (await db.selectFrom('inbox_conversations').select('id').execute()).length,
      messages: (await db.selectFrom('inbox_messages').select('id').execute()).length,
      search: (await db.selectFrom('inbox_search_docs').select('rid').execute()).length,
    }
  }
  const search = async (q: string) => (await ok(get(`/inbox/search?q=${encodeURIComponent(q)}`))).data
  const conversations = async () => (await ok(get('/inbox/conversations?limit=100'))).data
  const leads = async () => (await ok(get('/leads?limit=100'))).data
  const delivered = (text: string) => receiver.requests.filter((r) => r.body.includes(text))

  it('a test exchange creates no inbox conversation, no event, no webhook delivery and no lead; the tester reads it back', async () => {
    // A live exchange reaches the receiver and the lead sync (the pipelines work).
    const live = await ok(say(bot.id, 'We want to buy the enterprise plan this week: how long does delivery take?', { contact: { name: 'Lia Live', email: 'lia@buyer.example' } }), 201)
    assert.equal(live.test, false)
    await waitFor(() => delivered(live.conversation_id).some((r) => JSON.parse(r.body).type === 'conversation.created'), 15_000, 'the live exchange delivered')
    await waitFor(async () => (await leads()).find((l: any) => l.source_id === live.conversation_id), 15_000, 'the live exchange made a lead')
    const before = { rows: await inboxRows(), conversations: (await conversations()).length }

    // The dashboard's test chat: test: true, a contact named "Dashboard test", then a second turn.
    const first = await ok(
      say(bot.id, 'We want to buy the zephyrine plan this week: how long does delivery take to France?', { test: true, contact: { name: 'Dashboard test', email: 'dash@buyer.example' } }),
      201,
    )
    assert.equal(first.test, true)
    assert.match(first.conversation_id, /^btest_/)
    assert.match(first.inbound_message_id, /^btmsg_/)
    const second = await ok(say(bot.id, 'Do you sell zephyrine gift cards?', { test: true, conversation_id: first.conversation_id }), 201)
    assert.equal(second.conversation_id, first.conversation_id)
    assert.equal(second.handoff, true, 'a hand-off is reported to the tester (and applied to nothing)')
    // A version_id try is a test unless told otherwise.
    const v = await ok(post(`/bots/${bot.id}/versions`, { note: 'try' }), 201)
    const tried = await ok(say(bot.id, 'When is your zephyrine support team available?', { version_id: v.id }), 201)
    assert.equal(tried.test, true)
    assert.equal(tried.version_id, v.id)

    // A later live exchange: once the receiver has it, anything the tests had sent would be there too.
    const fence = await ok(say(bot.id, 'Where do orders ship from?', { contact: { name: 'Fen Fence' } }), 201)
    await waitFor(() => delivered(fence.conversation_id).length >= 3, 15_000, 'the fence delivered')
    for (const r of [first, second, tried]) {
      assert.deepEqual(delivered(r.conversation_id), [], 'no webhook delivery mentions a test conversation')
      assert.deepEqual(delivered(r.id), [])
      const rows = await h.app.kernel.db.selectFrom('events').select(['type', 'data']).execute()
      assert.deepEqual(
        rows.filter((e) => e.data.includes(r.conversation_id) || e.data.includes(r.id)),
        [],
        '…and no event at all (bot.handoff included)',
      )
    }
    assert.deepEqual(delivered('Dashboard test'), [])
    assert.deepEqual(delivered('zephyrine'), [])

    // The inbox: its list and search, and the rows its counts and unread marks read: only the fence was added.
    assert.deepEqual(await search('zephyrine'), [])
    assert.ok(!(await conversations()).some((c: any) => c.contact?.name === 'Dashboard test'))
    assert.equal((await conversations()).length, before.conversations + 1)
    const rows = await inboxRows()
    assert.equal(rows.conversations, before.rows.conversations + 1)
    assert.equal(rows.messages, before.rows.messages + 2)
    assert.ok(rows.search > before.rows.search && rows.search <= before.rows.search + 3, JSON.stringify({ before: before.rows, rows }))
    assertProblem(await get(`/inbox/conversations/${first.conversation_id}`), 404)
    // No lead from the test's contact.
    await new Promise((r) => setTimeout(r, 300))
    assert.ok(!(await leads()).some((l: any) => l.email === 'dash@buyer.example' || l.name === 'Dashboard test'))

    // The tester reads the exchange back.
    const read = await ok(get(`/bots/${bot.id}/test-conversations/${first.conversation_id}`))
    assert.equal(read.object, 'bot_test_conversation')
    assert.equal(read.id, first.conversation_id)
    assert.deepEqual(
      read.turns.map((t: any) => [t.message.id, t.message.content, t.reply]),
      [
        [first.inbound_message_id, 'We want to buy the zephyrine plan this week: how long does delivery take to France?', first],
        [second.inbound_message_id, 'Do you sell zephyrine gift cards?', second],
      ],
    )
    assert.equal((await ok(get(`/bots/${bot.id}/test-conversations/${tried.conversation_id}`))).turns[0].reply.version_id, v.id)
  })

  it('keeps tests and the inbox apart, and answers 404 for what the bot does not have', async () => {
    const t = await ok(say(bot.id, 'How long does delivery take?', { test: true }), 201)
    const live = await ok(say(bot.id, 'How long does delivery take?'), 201)
    // A test never continues an inbox conversation, and an inbox exchange never continues a test.
    assertProblem(await say(bot.id, 'And abroad?', { test: true, conversation_id: live.conversation_id }), 422, 'invalid_reference')
    assertProblem(await say(bot.id, 'And abroad?', { conversation_id: t.conversation_id }), 422, 'invalid_reference')
    // version_id with test: false answers in the inbox (a canary through the API).
    const v = await ok(post(`/bots/${bot.id}/versions`), 201)
    const canary = await ok(say(bot.id, 'How long does delivery take?', { version_id: v.id, test: false }), 201)
    assert.equal(canary.test, false)
    assert.match(canary.conversation_id, /^conv_/)
    // Another bot's test, another workspace, an unknown id.
    const other = await newBot()
    assertProblem(await get(`/bots/${other.id}/test-conversations/${t.conversation_id}`), 404, 'resource_not_found')
    assertProblem(await get(`/bots/${bot.id}/test-conversations/${t.conversation_id}`, h.b.test), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/v2/bots/${bot.id}/test-conversations/${t.conversation_id}`, key: h.a.live }), 404, 'resource_not_found')
    assertProblem(await get(`/bots/${bot.id}/test-conversations/${live.conversation_id}`), 404, 'resource_not_found')
    assertProblem(await say(bot.id, 'hi', { test: 'yes' }), 422)
    // Deleting the bot removes its tests with it.
    await ok(patch(`/bots/${bot.id}`, { archived: true }))
    await ok(call('DELETE', `/bots/${bot.id}`))
    assert.equal((await h.app.kernel.db.selectFrom('bot_replies').select('id').where('conversation_id', '=', t.conversation_id).execute()).length, 0)
  })
})
