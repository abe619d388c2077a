import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../test/helpers.js'
import { verifySignature, verifyStandardSignature } from '../crypto/signature.js'
import { AppError } from '../errors.js'
import type { Kernel } from '../kernel.js'
import { callIdempotencyKey, callTool, HIDDEN, prepareTool, previewToolCall, retargetTool, toolSpecOf, toolView, type StoredTool, type ToolContext } from './tools.js'
import { startToolServer } from './tools.testkit.js'

const SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10b29scy10ZXN0cw=='
const ORDER_PARAMS = { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' }, note: { type: 'string' } }, required: ['order_id'] }

async function rejects422(work: Promise<unknown>, pointer: string | RegExp) {
  await assert.rejects(work, (err: unknown) => {
    assert.ok(err instanceof AppError, String(err))
    assert.equal(err.status, 422)
    assert.equal(err.code, 'validation_failed')
    const pointers = (err.extra.errors ?? []).map((e) => e.pointer)
    assert.ok(
      pointers.some((p) => (typeof pointer === 'string' ? p === pointer : pointer.test(p))),
      `${pointers.join(', ')} — ${err.detail}`,
    )
    return true
  })
}

describe('kernel tools: prepareTool and callTool against a real tool server', () => {
  let h: TestApp
  let k: Kernel
  const ctx = (over: Partial<ToolContext> = {}): ToolContext => ({
    tenant: { workspaceId: h.a.workspaceId, mode: 'live' },
    callId: 'call_1',
    idempotencyKey: callIdempotencyKey('msg_1', 0, 'lookup_order', { order_id: 'ord_1' }),
    ...over,
  })
  const httpTool = (url: string, over: Record<string, unknown> = {}) =>
    prepareTool(
      k,
      {
        type: 'http',
        name: 'lookup_order',
        description: 'Look up an order',
        parameters: ORDER_PARAMS,
        url,
        method: 'POST',
        headers: { Authorization: 'Bearer tool-token-123' },
        timeout_ms: 2000,
        ...over,
      } as never,
      { ownerId: 'tool_1' },
    )

  before(async () => {
    h = await createTestApp()
    k = h.app.kernel
  })
  after(() => h.close())

  it('refuses invalid schemas, unknown built-ins, reserved headers and forbidden addresses with 422 pointers', async () => {
    await rejects422(httpTool('http://127.0.0.1:9/x', { parameters: { type: 'object', properties: { a: { type: 'strnig' } } } }), /^\/body\/parameters\/properties\/a\/type/)
    await rejects422(httpTool('http://127.0.0.1:9/x', { parameters: { type: 'object', properties: {}, required: ['ghost'] } }), '/body/parameters/required/0')
    await rejects422(httpTool('http://127.0.0.1:9/x', { parameters: { type: 'object', properties: { a: { type: 'string', pattern: '([' } } } }), '/body/parameters')
    await rejects422(httpTool('http://127.0.0.1:9/x', { parameters: { type: 'object', properties: { a: { $id: 'x' } } } }), '/body/parameters/properties/a/$id')
    await rejects422(httpTool('http://127.0.0.1:9/x', { headers: { 'Idempotency-Key': 'mine' } }), '/body/headers/Idempotency-Key')
    await rejects422(httpTool('http://127.0.0.1:9/x', { headers: { 'X-Api-Key': 'a\r\nX-Evil: 1' } }), '/body/headers/X-Api-Key')
    // Link-local and metadata addresses are refused even though this app allows private networks.
    await rejects422(httpTool('http://169.254.169.254/latest/meta-data'), '/body/url')
    await rejects422(httpTool('http://[::ffff:169.254.169.254]/'), '/body/url')
    await rejects422(httpTool('ftp://127.0.0.1/x'), '/body/url')
    await assert.rejects(prepareTool(k, { type: 'builtin', name: 'no_such_tool' }, { ownerId: 'tool_2', pointer: '/body/tools/3' }), (err: AppError) => {
      assert.equal(err.status, 422)
      assert.equal(err.extra.errors?.[0].pointer, '/body/tools/3/name')
      assert.match(err.detail, /built-in tools are/)
      return true
    })
  })

  it('stores header secrets sealed: never in clear in the stored row or the view', async () => {
    const stored = await httpTool('http://127.0.0.1:9/orders')
    assert.ok(!JSON.stringify(stored).includes('tool-token-123'))
    assert.match(stored.headers_sealed!, /^enc:v1:/)
    const view = toolView({ ...stored, id: 'tool_1', created_at: '2026-01-01T00:00:00.000Z' })
    assert.deepEqual(view.header_names, ['Authorization'])
    assert.ok(!JSON.stringify(view).includes('tool-token-123'))
    // Sealed under its owner: copied to another owner it must be resealed (retargetTool), not copied.
    assert.throws(() => k.secrets.open(stored.headers_sealed!, 'tool_other'))
    const moved = retargetTool(k, stored, 'tool_other')
    assert.equal(JSON.parse(k.secrets.open(moved.headers_sealed!, 'tool_other')).Authorization, 'Bearer tool-token-123')
  })

  it('POST: signed like webhooks (verifiable at the tool server), Idempotency-Key stable across a retry, JSON answer parsed', async () => {
    const server = await startToolServer((r) => ({ status: 200, body: JSON.stringify({ status: 'shipped', seen: JSON.parse(r.body) }) }))
    try {
      const tool = await httpTool(`${server.url}/orders`)
      const args = { order_id: 'ord_42' }
      const key = callIdempotencyKey('msg_9', 1, 'lookup_order', args)
      const first = await callTool(k, tool, args, ctx({ idempotencyKey: key }), SECRET)
      const retry = await callTool(k, tool, { ...args }, ctx({ idempotencyKey: callIdempotencyKey('msg_9', 1, 'lookup_order', { ...args }) }), SECRET)
      assert.equal(first.ok, true, JSON.stringify(first.error))
      assert.equal(first.status, 200)
      assert.deepEqual(first.output, { status: 'shipped', seen: { order_id: 'ord_42' } })
      assert.equal(retry.ok, true)
      const [a, b] = server.requests
      assert.equal(a.method, 'POST')
      assert.equal(a.headers['content-type'], 'application/json')
      assert.equal(a.headers.authorization, 'Bearer tool-token-123')
      assert.equal(a.headers['idempotency-key'], key)
      assert.equal(b.headers['idempotency-key'], key)
      assert.equal(verifySignature(a.headers['svc-status-signature'] as string, a.body, [SECRET]), true)
      assert.equal(verifySignature(a.headers['svc-status-signature'] as string, `${a.body} `, [SECRET]), false)
      assert.equal(verifySignature(a.headers['svc-status-signature'] as string, a.body, ['whsec_b3RoZXI=']), false)
      const std = { id: a.headers['webhook-id'] as string, timestamp: a.headers['webhook-timestamp'] as string, signature: a.headers['webhook-signature'] as string }
      assert.equal(std.id, key)
      assert.equal(verifyStandardSignature(std, a.body, [SECRET]), true)
      assert.notEqual(callIdempotencyKey('msg_9', 2, 'lookup_order', args), key)
      // A dry-run's preview is the same request with the header secret hidden, and sends nothing.
      const preview = previewToolCall(k, tool, args, ctx({ idempotencyKey: key }), SECRET)
      assert.equal(preview.request?.body, a.body)
      assert.equal(preview.request?.headers.authorization, HIDDEN)
      assert.equal(preview.request?.headers['idempotency-key'], key)
      assert.equal(previewToolCall(k, tool, { order_id: 1 }, ctx(), SECRET).error?.code, 'invalid_arguments')
      assert.equal(server.requests.length, 2)
      assert.equal(callIdempotencyKey('s', 0, 't', { a: 1, b: 2 }), callIdempotencyKey('s', 0, 't', { b: 2, a: 1 }))
    } finally {
      await server.close()
    }
  })

  it('GET: arguments in the query string, the signature over path and query; no signature without a secret', async () => {
    const server = await startToolServer(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'in stock' }))
    try {
      const tool = await httpTool(`${server.url}/stock?shop=1`, { method: 'GET' })
      const r = await callTool(k, tool, { order_id: 'ord_7', note: 'a b&c' }, ctx(), SECRET)
      assert.equal(r.ok, true)
      assert.equal(r.output, 'in stock')
      const seen = server.requests[0]
      assert.equal(seen.method, 'GET')
      assert.equal(seen.body, '')
      assert.deepEqual(Object.fromEntries(new URL(seen.url, server.url).searchParams), { shop: '1', order_id: 'ord_7', note: 'a b&c' })
      assert.equal(verifySignature(seen.headers['svc-status-signature'] as string, seen.url, [SECRET]), true)
      await callTool(k, tool, { order_id: 'ord_8' }, ctx(), null)
      assert.equal(server.requests[1].headers['svc-status-signature'], undefined)
    } finally {
      await server.close()
    }
  })

  it('never sends invalid arguments; failures are results (timeout, HTTP error, redirect, oversize, refused address, unreachable), never thrown', async () => {
    const server = await startToolServer((r) => {
      if (r.url.startsWith('/slow')) return { hang: true }
      if (r.url.startsWith('/fail')) return { status: 500, body: '{"error":"db down"}' }
      if (r.url.startsWith('/moved')) return { status: 302, headers: { location: 'http://169.254.169.254/' } }
      if (r.url.startsWith('/big')) return { status: 200, body: 'x'.repeat(70 * 1024) }
      return { status: 200, body: '{}' }
    })
    try {
      const bad = await callTool(k, await httpTool(`${server.url}/ok`), { order_id: 'not-an-order' }, ctx(), SECRET)
      assert.equal(bad.ok, false)
      assert.equal(bad.error?.code, 'invalid_arguments')
      assert.match(bad.error!.detail, /order_id/)
      assert.equal(server.requests.length, 0)

      const started = Date.now()
      const slow = await callTool(k, await httpTool(`${server.url}/slow`, { timeout_ms: 300 }), { order_id: 'ord_1' }, ctx(), SECRET)
      assert.equal(slow.error?.code, 'timeout')
      assert.ok(Date.now() - started < 2000)

      const failed = await callTool(k, await httpTool(`${server.url}/fail`), { order_id: 'ord_1' }, ctx(), SECRET)
      assert.deepEqual([failed.ok, failed.status, failed.error?.code, failed.output], [false, 500, 'http_error', { error: 'db down' }])

      const moved = await callTool(k, await httpTool(`${server.url}/moved`), { order_id: 'ord_1' }, ctx(), SECRET)
      assert.equal(moved.error?.code, 'redirect_not_followed')
      const big = await callTool(k, await httpTool(`${server.url}/big`), { order_id: 'ord_1' }, ctx(), SECRET)
      assert.equal(big.error?.code, 'response_too_large')
      const before = server.requests.length

      // A stored URL that now points somewhere forbidden is refused before anything is sent.
      const tool = await httpTool(`${server.url}/ok`)
      const metadata: StoredTool = { ...tool, url: 'http://169.254.169.254/latest/meta-data/' }
      const refused = await callTool(k, metadata, { order_id: 'ord_1' }, ctx(), SECRET)
      assert.equal(refused.error?.code, 'url_refused')
      assert.match(refused.error!.detail, /link-local|metadata/)
      const unreachable = await callTool(k, { ...tool, url: 'http://127.0.0.1:9/' }, { order_id: 'ord_1' }, ctx(), SECRET)
      assert.equal(unreachable.error?.code, 'connection_failed')
      assert.equal(server.requests.length, before)

      const controller = new AbortController()
      const pending = callTool(k, await httpTool(`${server.url}/slow`), { order_id: 'ord_1' }, ctx({ signal: controller.signal }), SECRET)
      setTimeout(() => controller.abort(), 50)
      assert.equal((await pending).error?.code, 'cancelled')
    } finally {
      await server.close()
    }
  })

  it('round trip: the builtin engine picks the tool, the call reaches the tool server, the answer reports its output', async () => {
    const server = await startToolServer((r) => ({ status: 200, body: JSON.stringify({ status: 'shipped', order: JSON.parse(r.body).order_id }) }))
    try {
      const tool = await httpTool(`${server.url}/orders`)
      const transcript = [{ role: 'customer' as const, text: 'Where is my order ord_77?' }]
      const req = { instructions: null, transcript, passages: [], tools: [toolSpecOf(tool)], toolResults: [] }
      const step = await k.ai.respond(req)
      assert.equal(step.kind, 'tool_calls')
      if (step.kind !== 'tool_calls') return
      const call = step.calls[0]
      const result = await callTool(k, tool, call.arguments, ctx({ callId: call.call_id, idempotencyKey: callIdempotencyKey('msg_x', 0, call.name, call.arguments) }), SECRET)
      assert.equal(JSON.parse(server.requests[0].body).order_id, 'ord_77')
      const answer = await k.ai.respond({ ...req, toolResults: [result] })
      assert.deepEqual(answer.kind === 'answer' && [answer.content, answer.grounded], ['Lookup order: status: shipped, order: ord_77.', true])
    } finally {
      await server.close()
    }
  })

  it('built-in tools: registered by name, run with the context; an AppError becomes a failed result', async () => {
    k.tools.registerBuiltin({
      name: 'test_echo',
      description: 'Echo the text back',
      parameters: { type: 'object', properties: { text: { type: 'string' }, fail: { type: 'boolean' } }, required: ['text'] },
      async run(c, args) {
        if (args.fail) throw new AppError('unprocessable', 'Echo refused.')
        return { echoed: args.text, conversation: c.conversationId ?? null }
      },
    })
    const stored = await prepareTool(k, { type: 'builtin', name: 'test_echo' }, { ownerId: 'tool_b' })
    assert.equal(stored.description, 'Echo the text back')
    const ok = await callTool(k, stored, { text: 'hi' }, ctx({ conversationId: 'conv_1' }), null)
    assert.deepEqual([ok.ok, ok.status, ok.output], [true, null, { echoed: 'hi', conversation: 'conv_1' }])
    const failed = await callTool(k, stored, { text: 'hi', fail: true }, ctx(), null)
    assert.deepEqual(failed.error, { code: 'unprocessable', detail: 'Echo refused.' })
    const missing = await callTool(k, { ...stored, name: 'gone_tool' }, { text: 'hi' }, ctx(), null)
    assert.equal(missing.error?.code, 'unknown_tool')
    assert.equal((await callTool(k, stored, {}, ctx(), null)).error?.code, 'invalid_arguments')
  })
})
