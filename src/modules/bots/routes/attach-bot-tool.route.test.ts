import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { verifySignature } from '../../../kernel/crypto/signature.js'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, post, say, startToolServer } from '../bots.testkit.js'

const ORDER_TOOL = {
  type: 'http',
  name: 'lookup_order',
  description: 'Look up the status of an order by its order number.',
  parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$', description: 'The order number' } }, required: ['order_id'] },
  method: 'POST',
  headers: { Authorization: 'Bearer tool-server-token' },
  timeout_ms: 1000,
}

describe('attachBotTool and listBotTools; tool calls from sendBotMessage', () => {
  let h: TestApp
  let server: Awaited<ReturnType<typeof startToolServer>>
  before(async () => {
    h = await botsApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    server = await startToolServer((req) => {
      const body = JSON.parse(req.body || '{}')
      if (body.order_id === 'ord_999') return { body: { status: 'late' }, delayMs: 3000 }
      return { body: { order_id: body.order_id, status: 'shipped', message: `Order ${body.order_id} has shipped.` } }
    })
  })
  after(async () => {
    await server.close()
    await h.close()
  })

  it('attaches an HTTP tool: the signing secret once, header names but never their values', async () => {
    const bot = await newBot(h)
    const tool = await ok(post(h, `/bots/${bot.id}/tools`, { ...ORDER_TOOL, url: `${server.url}/orders` }), 201)
    assert.match(tool.id, /^tool_/)
    assert.equal(tool.object, 'bot_tool')
    assert.equal(tool.bot_id, bot.id)
    assert.match(tool.signing_secret, /^whsec_/)
    assert.deepEqual(tool.header_names, ['Authorization'])
    assert.ok(!JSON.stringify(tool).includes('tool-server-token'))
    const list = await ok(get(h, `/bots/${bot.id}/tools`))
    assert.deepEqual(
      list.data.map((t: any) => t.id),
      [tool.id],
    )
    assert.equal(list.data[0].signing_secret, undefined)
    assert.ok(!JSON.stringify(list).includes('tool-server-token'))
    const row = await h.app.kernel.db.selectFrom('bot_tools').selectAll().where('id', '=', tool.id).executeTakeFirstOrThrow()
    assert.ok(!JSON.stringify(row).includes('tool-server-token'), 'header values are sealed at rest')
    assert.ok(!JSON.stringify(row).includes(tool.signing_secret), 'the signing secret is sealed at rest')
  })

  it('refuses invalid schemas, unknown built-ins, refused addresses and duplicate names', async () => {
    const bot = await newBot(h)
    const bad = await post(h, `/bots/${bot.id}/tools`, { ...ORDER_TOOL, url: `${server.url}/x`, parameters: { type: 'object', properties: { n: { type: 'nonsense' } } } })
    assertProblem(bad, 422)
    assert.match(JSON.parse(bad.body).errors[0].pointer, /^\/body\/parameters/)
    assertProblem(await post(h, `/bots/${bot.id}/tools`, { type: 'builtin', name: 'launch_rockets' }), 422)
    const ssrf = await post(h, `/bots/${bot.id}/tools`, { ...ORDER_TOOL, url: 'http://169.254.169.254/latest/meta-data' })
    assertProblem(ssrf, 422)
    assert.equal(JSON.parse(ssrf.body).errors[0].pointer, '/body/url')
    await ok(post(h, `/bots/${bot.id}/tools`, { type: 'builtin', name: 'search_knowledge' }), 201)
    assertProblem(await post(h, `/bots/${bot.id}/tools`, { type: 'builtin', name: 'search_knowledge' }), 409, 'tool_name_taken')
    assertProblem(await post(h, `/bots/${bot.id}/tools`, { type: 'builtin', name: 'handoff_to_human' }, { key: h.b.live }), 404)
  })

  it('calls the tool when a message asks for it: signed, with an idempotency key, the result in the reply', async () => {
    const bot = await newBot(h)
    const tool = await ok(post(h, `/bots/${bot.id}/tools`, { ...ORDER_TOOL, url: `${server.url}/orders` }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const before = server.seen.length
    const reply = await ok(say(h, bot.id, 'What is the status of my order ord_12345?', {}, { 'idempotency-key': 'order-q-1' }), 201)
    const req = server.seen[before]
    assert.equal(req.method, 'POST')
    assert.equal(req.url, '/orders')
    assert.deepEqual(JSON.parse(req.body), { order_id: 'ord_12345' })
    assert.equal(req.headers.authorization, 'Bearer tool-server-token')
    assert.ok(verifySignature(req.headers['svc-status-signature'] as string, req.body, [tool.signing_secret]), 'the tool server can verify the call')
    const key = req.headers['idempotency-key']
    assert.ok(typeof key === 'string' && key.length > 10)
    assert.equal(reply.tool_calls.length, 1)
    assert.equal(reply.tool_calls[0].name, 'lookup_order')
    assert.equal(reply.tool_calls[0].ok, true)
    assert.equal(reply.tool_calls[0].status, 200)
    assert.equal(reply.tool_calls[0].output.status, 'shipped')
    assert.match(reply.content, /shipped/)
    assert.equal(reply.handoff, false)
    // A retry of the same request replays the reply: the tool is not called again.
    const replay = await ok(say(h, bot.id, 'What is the status of my order ord_12345?', {}, { 'idempotency-key': 'order-q-1' }), 201)
    assert.deepEqual(replay, reply)
    assert.equal(server.seen.length, before + 1)
  })

  it('reports a timeout in the reply (never a 5xx) and hands off', async () => {
    const bot = await newBot(h)
    await ok(post(h, `/bots/${bot.id}/tools`, { ...ORDER_TOOL, url: `${server.url}/orders` }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const reply = await ok(say(h, bot.id, 'What is the status of my order ord_999?'), 201)
    assert.equal(reply.tool_calls[0].ok, false)
    assert.equal(reply.tool_calls[0].error.code, 'timeout')
    assert.equal(reply.handoff, true)
  })
})
