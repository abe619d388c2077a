import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import { loadConfig } from '../../config.js'
import { AppError } from '../errors.js'
import { aiEngineFor, createAiEngine, type AiEngine, type RespondRequest } from './ai.js'
import { startChatServer, type ChatReply } from './ai.testkit.js'

const log = pino({ level: 'silent' })
const tool = {
  name: 'lookup_order',
  description: 'Look up an order by id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
}
const req = (over: Partial<RespondRequest> = {}): RespondRequest => ({
  instructions: 'You are the Acme support bot.',
  transcript: [{ role: 'customer', text: 'Where is order ord_1, and how long do refunds take?' }],
  passages: [
    { kind: 'passage', id: 'chk_refund', title: 'Refunds', text: 'Refunds take 5 business days.' },
    { kind: 'passage', id: 'chk_ship', title: 'Shipping', text: 'We ship within 2 days.' },
  ],
  tools: [tool],
  toolResults: [],
  temperature: 0.2,
  ...over,
})

describe('ai: the openai engine responds with tool calls against a local OpenAI-compatible server', () => {
  let replies: ChatReply[] = []
  let server: Awaited<ReturnType<typeof startChatServer>>
  let engine: AiEngine
  const providerError = (code: string, detail?: RegExp) => (err: unknown) => {
    assert.ok(err instanceof AppError, String(err))
    assert.equal(err.code, code)
    if (detail) assert.match(err.detail, detail)
    return true
  }

  before(async () => {
    server = await startChatServer(() => replies.shift() ?? { text: 'nothing scripted' })
    engine = createAiEngine(loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '400' }).ai, log)
  })
  after(() => server.close())

  it('a tool call round trip: tools offered with tool_choice auto, the result sent back, the answer cites passages', async () => {
    replies = [{ toolCalls: [{ id: 'call_abc', name: 'lookup_order', arguments: '{"order_id":"ord_1"}' }] }, { text: 'Order ord_1 has shipped. Refunds take 5 business days [1]. See also [7].' }]
    const first = await engine.respond(req())
    // The model's token counts come along (agents report them as run usage).
    assert.deepEqual(first, {
      kind: 'tool_calls',
      calls: [{ call_id: 'call_abc', name: 'lookup_order', arguments: { order_id: 'ord_1' } }],
      provider: 'openai',
      model: 'test-model',
      usage: { prompt: 10, completion: 5 },
    })
    const sent = server.requests.at(-1)
    assert.equal(sent.tool_choice, 'auto')
    assert.equal(sent.temperature, 0.2)
    assert.deepEqual(sent.tools, [{ type: 'function', function: tool }])
    assert.match(sent.messages[0].content, /Acme support bot[\s\S]*only the numbered passages[\s\S]*\[1\] Refunds: Refunds take 5 business days\./)

    const answer = await engine.respond(req({ toolResults: [{ call_id: 'call_abc', name: 'lookup_order', arguments: { order_id: 'ord_1' }, ok: true, output: { status: 'shipped' } }] }))
    const second = server.requests.at(-1)
    assert.deepEqual(second.messages.slice(-2), [
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"ord_1"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc', content: '{"ok":true,"output":{"status":"shipped"}}' },
    ])
    assert.equal(answer.kind, 'answer')
    if (answer.kind !== 'answer') return
    // [7] points at no passage: removed. [1] is kept and cited.
    assert.equal(answer.content, 'Order ord_1 has shipped. Refunds take 5 business days [1]. See also.')
    assert.equal(answer.grounded, true)
    assert.equal(answer.confidence, null)
    assert.deepEqual(
      answer.sources.map((s) => s.id),
      ['chk_refund'],
    )
  })

  it('a plain answer without tools sends no tool_choice; "I do not know" with no citation is not grounded', async () => {
    replies = [{ text: 'I do not know the answer to that from the information I have.' }]
    const step = await engine.respond(req({ tools: [], passages: [{ kind: 'passage', id: 'chk_x', title: null, text: 'Unrelated.' }] }))
    assert.equal(server.requests.at(-1).tool_choice, undefined)
    assert.equal(server.requests.at(-1).tools, undefined)
    assert.deepEqual(step.kind === 'answer' && [step.grounded, step.sources], [false, []])
    replies = [{ text: 'We ship within two days.' }]
    const plain = await engine.respond(req({ tools: [] }))
    assert.deepEqual(plain.kind === 'answer' && [plain.grounded, plain.sources.length], [true, 2])
  })

  it('malformed tool calls (arguments not JSON, not an object, a tool not offered) are ai_provider_error; nothing to call', async () => {
    replies = [{ toolCalls: [{ name: 'lookup_order', arguments: '{"order_id": ord_1' }] }]
    await assert.rejects(engine.respond(req()), providerError('ai_provider_error', /not JSON/))
    replies = [{ toolCalls: [{ name: 'lookup_order', arguments: '["ord_1"]' }] }]
    await assert.rejects(engine.respond(req()), providerError('ai_provider_error', /not a JSON object/))
    replies = [{ toolCalls: [{ name: 'delete_everything', arguments: '{}' }] }]
    await assert.rejects(engine.respond(req()), providerError('ai_provider_error', /not offered/))
    replies = [{ text: '' }]
    await assert.rejects(engine.respond(req()), providerError('ai_provider_error'))
    replies = [{ status: 500, error: 'boom' }]
    await assert.rejects(engine.respond(req()), providerError('ai_provider_error'))
  })

  it('a server that does not answer within AI_TIMEOUT_MS is ai_provider_timeout', async () => {
    replies = [{ hang: true }]
    const started = Date.now()
    await assert.rejects(engine.respond(req()), providerError('ai_provider_timeout'))
    assert.ok(Date.now() - started < 3000)
  })

  it('aiEngineFor: null is the configured engine, builtin always works, openai only where configured (422)', () => {
    const builtinKernel = { ai: createAiEngine(loadConfig({}).ai, log) }
    assert.equal(aiEngineFor(builtinKernel, null), builtinKernel.ai)
    assert.equal(aiEngineFor(builtinKernel, 'builtin'), builtinKernel.ai)
    assert.throws(
      () => aiEngineFor(builtinKernel, 'openai'),
      (err: AppError) => err.status === 422 && err.code === 'unprocessable' && /AI_PROVIDER=openai/.test(err.detail),
    )
    const openaiKernel = { ai: engine }
    assert.equal(aiEngineFor(openaiKernel, 'openai'), engine)
    const builtin = aiEngineFor(openaiKernel, 'builtin')
    assert.equal(builtin.provider, 'builtin')
    assert.equal(aiEngineFor(openaiKernel, 'builtin'), builtin)
  })
})
