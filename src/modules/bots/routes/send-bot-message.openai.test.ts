import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startChatServer, type ChatReply } from '../../../kernel/ai/ai.testkit.js'
import type { TestApp } from '../../../../test/helpers.js'
import { botsApp, get, helpCenter, newBot, ok, patch, post, say, startToolServer } from '../bots.testkit.js'

// sendBotMessage with an OpenAI-compatible engine: a local server that speaks the chat-completions wire
// format answers as each test scripts it (tool calls, text, malformed calls, silence).
describe('sendBotMessage with an OpenAI-compatible engine', () => {
  let h: TestApp
  let script: (body: any, n: number) => ChatReply = () => ({ text: 'Hello.' })
  let chat: Awaited<ReturnType<typeof startChatServer>>
  let tools: Awaited<ReturnType<typeof startToolServer>>
  let kb: any
  before(async () => {
    chat = await startChatServer((body, n) => script(body, n))
    tools = await startToolServer((req) => ({ body: { order_id: JSON.parse(req.body).order_id, status: 'shipped' } }))
    h = await botsApp({ AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '800', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    ;({ kb } = await helpCenter(h))
  })
  after(async () => {
    await h.close()
    await chat.close()
    await tools.close()
  })

  async function liveBot(payload: Record<string, unknown> = {}) {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], ...payload })
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
    return bot
  }

  it('runs a tool call round trip: the model asks, the tool answers, the model replies from the result', async () => {
    const bot = await liveBot()
    const first = chat.requests.length
    script = (body) => (body.messages.some((m: any) => m.role === 'tool') ? { text: 'Your order ord_7 has shipped.' } : { toolCalls: [{ name: 'lookup_order', arguments: '{"order_id":"ord_7"}' }] })
    const r = await ok(say(h, bot.id, 'Where is my order ord_7?'), 201)
    assert.equal(r.content, 'Your order ord_7 has shipped.')
    assert.deepEqual(r.ai, { provider: 'openai', model: 'test-model' })
    assert.equal(r.tool_calls.length, 1)
    assert.equal(r.tool_calls[0].ok, true)
    assert.deepEqual(r.tool_calls[0].output, { order_id: 'ord_7', status: 'shipped' })
    assert.equal(r.grounded, true)
    assert.equal(r.handoff, false)
    const [ask, answer] = chat.requests.slice(first)
    assert.deepEqual(
      ask.tools.map((t: any) => t.function.name),
      ['lookup_order'],
    )
    const toolMessage = answer.messages.find((m: any) => m.role === 'tool')
    assert.match(toolMessage.content, /shipped/)
    // The instructions and the retrieved passages are the model's only context.
    assert.match(JSON.stringify(ask.messages[0]), /helpful support assistant/)
  })

  it('answers from the passages it is given, cited', async () => {
    const bot = await liveBot()
    const first = chat.requests.length
    script = () => ({ text: 'Delivery takes two to four working days in France [1].' })
    const r = await ok(say(h, bot.id, 'How long does delivery take?'), 201)
    assert.match(JSON.stringify(chat.requests[first].messages), /two to four working days/)
    assert.equal(r.grounded, true)
    assert.equal(r.citations.length, 1)
    assert.equal(r.citations[0].citation.title, 'Shipping times')
  })

  it("renumbers the model's markers to the reply's own citations, and drops one that points nowhere", async () => {
    // Whatever the passages' scores, the model's text is what is sent here.
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], handoff: { confidence_threshold: 0 } })
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { answer_only_when_grounded: false }))
    await ok(post(h, `/bots/${bot.id}/publish`))
    const first = chat.requests.length
    script = () => ({ text: 'Delivery takes two to four working days [2]. Returns are free [9].' })
    const r = await ok(say(h, bot.id, 'How long does delivery take, and are returns free?'), 201)
    const prompt = JSON.stringify(chat.requests[first].messages)
    const second = /\[2\] ([^:\n]+):/.exec(JSON.parse(prompt)[0].content)
    assert.ok(second, 'the prompt numbers at least two passages')
    assert.equal(r.content, 'Delivery takes two to four working days [1]. Returns are free.')
    assert.equal(r.citations.length, 1)
    assert.equal(r.citations[0].citation.title, second[1], "the prompt's [2] is the reply's [1]")
  })

  it('a malformed answer or a silent provider never fails the request: the customer gets the fallback, a person the conversation', async () => {
    const bot = await liveBot()
    script = () => ({ toolCalls: [{ name: 'launch_rockets', arguments: '{}' }] })
    const bad = await ok(say(h, bot.id, 'Where is my order ord_8?'), 201)
    assert.equal(bad.handoff, true)
    assert.equal(bad.handoff_reason, 'ai_error')
    assert.equal(bad.content, (await ok(get(h, `/bots/${bot.id}/guardrails`))).fallback_message)
    script = () => ({ hang: true })
    const started = Date.now()
    const silent = await ok(say(h, bot.id, 'Hello?'), 201)
    assert.ok(Date.now() - started < 5000)
    assert.equal(silent.handoff_reason, 'ai_error')
    const messages = (await ok(get(h, `/inbox/conversations/${silent.conversation_id}/messages`))).data
    assert.equal(messages.length, 2, 'the customer message is kept')
    script = () => ({ status: 500, error: 'model exploded' })
    assert.equal((await ok(say(h, bot.id, 'Hello again?'), 201)).handoff_reason, 'ai_error')
  })

  it('a bot can switch to the builtin engine', async () => {
    const bot = await liveBot({ ai: { provider: 'builtin' } })
    const first = chat.requests.length
    const r = await ok(say(h, bot.id, 'How long does delivery take to France?'), 201)
    assert.equal(r.ai.provider, 'builtin')
    assert.equal(chat.requests.length, first, 'the OpenAI server was not asked')
  })
})
