import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startChatServer } from '../../../kernel/ai/ai.testkit.js'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, helpCenter, newBot, ok, patch, post, startToolServer } from '../bots.testkit.js'

/** The events of a text/event-stream body, in order: [event, data]. */
function eventsOf(body: string): [string, any][] {
  return body
    .split('\n\n')
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      return event && data ? ([event, JSON.parse(data)] as [string, any]) : null
    })
    .filter((e): e is [string, any] => e !== null)
}

// streamBotMessage: the reply as Server-Sent Events. An OpenAI-compatible server on 127.0.0.1 streams its
// answer a word at a time (`stream: true`); the bot passes each piece on as a `delta`, then the reply.
describe('streamBotMessage (POST /bots/{id}/messages/stream)', () => {
  let h: TestApp
  let chat: Awaited<ReturnType<typeof startChatServer>>
  let kb: any
  let tools: Awaited<ReturnType<typeof startToolServer>>
  let script: (body: any) => { text: string } | { toolCalls: { name: string; arguments: string }[] } = () => ({ text: 'Delivery takes two to four working days in France [1].' })
  before(async () => {
    chat = await startChatServer((body) => script(body))
    tools = await startToolServer((req) => ({ body: { order_id: JSON.parse(req.body).order_id, status: 'shipped' } }))
    h = await botsApp({ AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '2000', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    ;({ kb } = await helpCenter(h))
  })
  after(async () => {
    await h.close()
    await chat.close()
    await tools.close()
  })

  const stream = (botId: string, body: Record<string, unknown>) => h.request({ method: 'POST', url: `/v2/bots/${botId}/messages/stream`, payload: body, headers: { accept: 'text/event-stream' } })

  it('streams the model’s answer in several deltas, then the reply; the JSON operation is unchanged', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], handoff: { confidence_threshold: 0 } })
    // What is streamed is what is sent here: the reply is not replaced by the fallback whatever the ranking says.
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { answer_only_when_grounded: false }))
    await ok(post(h, `/bots/${bot.id}/publish`))
    const r = await stream(bot.id, { content: 'How long does delivery take to France?', test: true })
    assert.equal(r.statusCode, 200, r.body)
    assert.match(String(r.headers['content-type']), /^text\/event-stream/)
    const events = eventsOf(r.body)
    const deltas = events.filter(([e]) => e === 'delta').map(([, d]) => d.text as string)
    assert.ok(deltas.length >= 5, JSON.stringify(events))
    assert.equal(deltas.join(''), 'Delivery takes two to four working days in France [1].')
    assert.equal(events.at(-1)![0], 'message')
    assert.equal(
      events.findIndex(([e]) => e === 'message'),
      events.length - 1,
      'the reply comes last, once',
    )
    const reply = events.at(-1)![1].reply
    assert.equal(reply.object, 'bot_reply')
    assert.equal(reply.test, true)
    assert.equal(reply.content, 'Delivery takes two to four working days in France [1].')
    assert.deepEqual(reply.ai, { provider: 'openai', model: 'test-model' })
    const asked = chat.requests.at(-1)
    assert.equal(asked.stream, true, 'the model was asked to stream')
    // The tester reads the same reply back; sendBotMessage still answers JSON, and asks the model without streaming.
    const read = await ok(h.request({ method: 'GET', url: `/v2/bots/${bot.id}/test-conversations/${reply.conversation_id}` }))
    assert.deepEqual(read.turns[0].reply, reply)
    const plain = await ok(post(h, `/bots/${bot.id}/messages`, { content: 'How long does delivery take to France?' }), 201)
    assert.equal(plain.content, reply.content)
    assert.equal(chat.requests.at(-1).stream, undefined)
  })

  it('streams personal data masked as the reply is, however the pieces fall', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], handoff: { confidence_threshold: 0 } })
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { answer_only_when_grounded: false }))
    await ok(post(h, `/bots/${bot.id}/publish`))
    script = () => ({ text: 'Write to jane.doe@example.com or call +44 20 7946 0958 about delivery to France.' })
    try {
      const r = await stream(bot.id, { content: 'How long does delivery take to France?', test: true })
      assert.equal(r.statusCode, 200, r.body)
      const events = eventsOf(r.body)
      const deltas = events.filter(([e]) => e === 'delta').map(([, d]) => d.text as string)
      const reply = events.at(-1)![1].reply
      assert.match(reply.content, /\[email\].*\[phone\]/)
      assert.ok(deltas.length >= 3, JSON.stringify(deltas))
      assert.equal(deltas.join(''), reply.content)
      for (const d of deltas) assert.doesNotMatch(d, /jane|example\.com|7946|0958/, JSON.stringify(deltas))
    } finally {
      script = () => ({ text: 'Delivery takes two to four working days in France [1].' })
    }
  })

  it('streams a tool-calling turn: the streamed tool call runs, then the answer streams', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id] })
    await ok(
      post(h, `/bots/${bot.id}/tools`, {
        type: 'http',
        name: 'lookup_order',
        description: 'Look up an order by id.',
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        url: `${tools.url}/orders`,
      }),
      201,
    )
    await ok(post(h, `/bots/${bot.id}/publish`))
    script = (body) => (body.messages.some((m: any) => m.role === 'tool') ? { text: 'Your order ord_7 has shipped.' } : { toolCalls: [{ name: 'lookup_order', arguments: '{"order_id":"ord_7"}' }] })
    const events = eventsOf((await stream(bot.id, { content: 'Where is my order ord_7?', test: true })).body)
    assert.deepEqual(
      events
        .filter(([e]) => e === 'delta')
        .map(([, d]) => d.text)
        .join(''),
      'Your order ord_7 has shipped.',
    )
    const reply = events.at(-1)![1].reply
    assert.equal(reply.content, 'Your order ord_7 has shipped.')
    assert.deepEqual(
      reply.tool_calls.map((c: any) => [c.name, c.arguments, c.ok]),
      [['lookup_order', { order_id: 'ord_7' }, true]],
    )
    assert.equal(tools.seen.length, 1)
  })

  it('sends the builtin engine’s reply as one delta; errors before the stream are problems', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], ai: { provider: 'builtin' } })
    await ok(post(h, `/bots/${bot.id}/publish`))
    const events = eventsOf((await stream(bot.id, { content: 'How long does delivery take to France?' })).body)
    assert.deepEqual(
      events.map(([e]) => e),
      ['delta', 'message'],
    )
    assert.equal(events[0][1].text, events[1][1].reply.content)
    assert.equal(events[1][1].reply.test, false)
    assert.match(events[1][1].reply.conversation_id, /^conv_/)
    const draft = await newBot(h)
    assertProblem(await stream(draft.id, { content: 'hello' }), 409, 'bot_not_published')
    assertProblem(await stream(bot.id, { content: '' }), 422)
    assertProblem(await stream('bot_01JD0000000000000000000000', { content: 'hello' }), 404)
  })
})
