import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { createEventSource, type EventSourceMessage } from 'eventsource-client'
import { createParser } from 'eventsource-parser'
import type { TestApp } from '../../../../test/helpers.js'
import { startChatServer } from '../../../kernel/ai/ai.testkit.js'
import { agentsApp, newAgent, refundTool, startToolServer } from '../agents.testkit.js'

const HEARTBEAT_MS = 60
const STEP_MS = 150

describe('streamAgentDryRun', () => {
  let h: TestApp
  let base: string
  let tools: Awaited<ReturnType<typeof startToolServer>>
  let chat: Awaited<ReturnType<typeof startChatServer>>
  let agentId: string
  before(async () => {
    tools = await startToolServer(() => ({ status: 200, body: '{}' }))
    // A slow model: it asks for the refund, then answers; `loop` in the input makes it ask again and again.
    chat = await startChatServer((body) => {
      const calls = body.messages.filter((m: any) => m.role === 'tool').length
      const looping = JSON.stringify(body.messages).includes('loop')
      if (calls === 0 || looping) return { toolCalls: [{ name: 'refund_order', arguments: '{"order_id":"ord_1","amount":250}' }], delayMs: STEP_MS }
      return { text: 'Refunded 250 on ord_1.', delayMs: STEP_MS }
    })
    h = await agentsApp({ AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'test-model', SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) })
    await h.app.http.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(h.app.http.server.address() as AddressInfo).port}/v2`
    agentId = (await newAgent(h, { tools: [refundTool(tools.url)], max_steps: 20 })).id
  })
  after(async () => {
    // The test's own fetch connections (an aborted one among them) would keep the listener open.
    h.app.http.server.closeAllConnections()
    await h.close()
    await tools.close()
    await chat.close()
  })

  const open = (input: string, lastEventId?: string, signal?: AbortSignal) =>
    fetch(`${base}/agents/${agentId}/dry-run/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${h.a.live}`, 'content-type': 'application/json', accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      body: JSON.stringify({ input }),
      signal,
    })

  it('streams one event per step with ids, the approval a run would ask for, then completed; heartbeats between', async () => {
    const es = createEventSource({
      url: `${base}/agents/${agentId}/dry-run/stream`,
      method: 'POST',
      headers: { authorization: `Bearer ${h.a.live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Refund order ord_1, amount 250' }),
    })
    const got: EventSourceMessage[] = []
    for await (const e of es) got.push(e)
    assert.equal(es.readyState, 'closed')
    assert.deepEqual(
      got.map((e) => `${e.event}${e.event?.startsWith('step') ? `:${JSON.parse(e.data).step.type}` : ''}`),
      [
        'step.completed:reasoning',
        'approval.required',
        'step.completed:approval',
        'step.started:tool_call',
        'step.completed:tool_call',
        'step.completed:tool_result',
        'step.completed:reasoning'.replace('reasoning', 'message'),
        'completed',
      ],
    )
    const stream = got[0].id!.split(':')[0]
    assert.deepEqual(
      got.map((e) => e.id),
      got.map((_, i) => `${stream}:${i + 1}`),
    )
    const approval = JSON.parse(got[1].data).approval
    assert.deepEqual([approval.tool, approval.arguments], ['refund_order', { order_id: 'ord_1', amount: 250 }])
    const call = JSON.parse(got[3].data).step
    assert.equal(call.request.url, `${tools.url}/refunds`)
    assert.equal(call.request.headers.authorization, '[hidden]')
    const done = JSON.parse(got.at(-1)!.data).dry_run
    assert.equal(done.status, 'succeeded')
    assert.equal(done.output.text, 'Refunded 250 on ord_1.')
    assert.deepEqual(done.usage.tokens, { prompt: 20, completion: 10 })

    // Heartbeats: `: ping` comments, read with eventsource-parser while the slow model thinks.
    const comments: string[] = []
    const parser = createParser({ onEvent: () => {}, onComment: (c) => comments.push(c.trim()) })
    const res = await open('Refund order ord_1, amount 250')
    const reader = res.body!.getReader()
    const t0 = Date.now()
    for (;;) {
      const { done: end, value } = await reader.read()
      if (end) break
      parser.feed(new TextDecoder().decode(value))
    }
    const pings = comments.filter((c) => c === 'ping').length
    const expected = (Date.now() - t0) / HEARTBEAT_MS
    assert.ok(pings >= 2 && pings <= expected + 2, `${pings} pings over ${Date.now() - t0} ms at ${HEARTBEAT_MS} ms`)
    assert.equal(tools.requests.length, 0, 'no tool request left the service')
  })

  it('resumes with Last-Event-ID: the missed events, once, without running the work again', async () => {
    const before = chat.requests.length
    const abort = new AbortController()
    const first: { id: string; event: string }[] = []
    const parser = createParser({ onEvent: (e) => first.push({ id: e.id!, event: e.event! }) })
    const res = await open('Refund order ord_1, amount 250', undefined, abort.signal)
    const reader = res.body!.getReader()
    try {
      while (first.length < 1) {
        const { value } = await reader.read()
        parser.feed(new TextDecoder().decode(value))
      }
    } finally {
      abort.abort()
    }
    assert.equal(first[0].event, 'step.completed')
    const resumed = createEventSource({
      url: `${base}/agents/${agentId}/dry-run/stream`,
      method: 'POST',
      headers: { authorization: `Bearer ${h.a.live}`, 'content-type': 'application/json', 'last-event-id': first[0].id },
      body: JSON.stringify({ input: 'Refund order ord_1, amount 250' }),
    })
    const rest: EventSourceMessage[] = []
    for await (const e of resumed) {
      rest.push(e)
      if (e.event === 'completed') break
    }
    resumed.close()
    const seq = (id: string) => Number(id.split(':')[1])
    assert.deepEqual(
      rest.map((e) => seq(e.id!)),
      [2, 3, 4, 5, 6, 7, 8],
    )
    assert.equal(rest.at(-1)!.event, 'completed')
    assert.equal(rest[0].id!.split(':')[0], first[0].id.split(':')[0])
    assert.equal(chat.requests.length - before, 2, 'the model was asked twice, as in one dry-run')
    assert.equal(tools.requests.length, 0)
  })

  it('stops the work when the client leaves and does not come back', async () => {
    const abort = new AbortController()
    const res = await open('Refund order ord_1, amount 250, loop', undefined, abort.signal)
    const reader = res.body!.getReader()
    await reader.read()
    abort.abort()
    // Within the resume grace period (5 s) the work goes on; after it, the model is not asked again.
    await sleep(5_000 + 2 * STEP_MS)
    const settled = chat.requests.length
    await sleep(4 * STEP_MS)
    assert.equal(chat.requests.length, settled, 'no model step after the stream was abandoned')
    assert.equal(tools.requests.length, 0)
  })

  it('takes Idempotency-Key (declared in OpenAPI): a repeat replays the finished stream without a second dry-run', async () => {
    const send = () =>
      fetch(`${base}/agents/${agentId}/dry-run/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.a.live}`, 'content-type': 'application/json', accept: 'text/event-stream', 'idempotency-key': `dry-${agentId}` },
        body: JSON.stringify({ input: 'Refund order ord_1, amount 250' }),
      })
    const first = await send()
    assert.equal(first.status, 200)
    const text = await first.text()
    assert.match(text, /event: completed/)
    const callsAfterFirst = chat.requests.length
    let again = await send()
    for (let i = 0; i < 50 && again.status === 409; i++) {
      await again.text()
      await sleep(20)
      again = await send()
    }
    assert.equal(again.status, 200)
    assert.equal(again.headers.get('idempotent-replayed'), 'true')
    // The same bytes, heartbeats aside (they are not events).
    assert.equal(await again.text(), text.replace(/: ping\n\n/g, ''))
    assert.equal(chat.requests.length, callsAfterFirst, 'the model was not asked again')
    const doc = (await (await fetch(`${base}/openapi.json`)).json()) as any
    const params = doc.paths['/agents/{id}/dry-run/stream'].post.parameters.map((p: { $ref?: string }) => p.$ref)
    assert.ok(params.includes('#/components/parameters/IdempotencyKey'))
  })
})
