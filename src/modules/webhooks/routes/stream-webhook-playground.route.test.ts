import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createParser } from 'eventsource-parser'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { newId } from '../../../kernel/ids.js'
import * as repo from '../webhooks.repository.js'
import { createEndpoint, freePort, randomToken, sendTest, waitFor } from '../webhooks.testkit.js'

interface Sse {
  event?: string
  id?: string
  data: string
}

describe('streamWebhookPlayground', () => {
  let h: TestApp
  let base: string
  const aborts: AbortController[] = []
  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    h = await createTestApp({ env: { PUBLIC_URL: base, WEBHOOK_RETRY_SCHEDULE: '1', SSE_HEARTBEAT_MS: '200' } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    h.app.kernel.jobs.start()
  })
  after(async () => {
    for (const a of aborts) a.abort()
    h.app.http.server.closeAllConnections()
    await h.close()
  })

  /** Opens the stream without a key; `events` fills as they arrive. */
  async function open(path: string, headers: Record<string, string> = {}) {
    const ac = new AbortController()
    aborts.push(ac)
    const res = await fetch(`${base}${path}`, { headers: { accept: 'text/event-stream', ...headers }, signal: ac.signal })
    const events: Sse[] = []
    if (res.ok && res.body) {
      const parser = createParser({ onEvent: (e) => events.push({ event: e.event, id: e.id, data: e.data }) })
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          parser.feed(value)
        }
      })().catch(() => undefined)
    }
    const captures = () => events.filter((e) => e.event === 'capture').map((e) => JSON.parse(e.data))
    return { res, events, captures, close: () => ac.abort() }
  }
  const post = (token: string, payload: string, sandbox = false) =>
    h.request({ method: 'POST', url: `${sandbox ? '/sandbox' : ''}/v2/webhooks/playground/${token}`, key: null, headers: { 'content-type': 'application/json' }, payload })

  it('opens with ready and the inbox oldest first, then each new capture as the listing shows it; the stream itself is not recorded', async () => {
    const token = randomToken()
    const first = json(await post(token, '{"n":1}')).capture_id
    const second = json(await post(token, '{"n":2}')).capture_id
    const s = await open(`/v2/webhooks/playground/${token}/stream`)
    assert.equal(s.res.status, 200)
    assert.match(s.res.headers.get('content-type') ?? '', /^text\/event-stream/)
    await waitFor(() => s.captures().length === 2, 5000, 'existing captures')
    assert.equal(s.events[0].event, 'ready')
    assert.deepEqual(JSON.parse(s.events[0].data), { object: 'webhook_playground_stream', token, inbox_url: `${base}/v2/webhooks/playground/${token}` })
    assert.deepEqual(
      s.captures().map((c) => c.id),
      [first, second],
    )

    const third = json(await post(token, '{"n":3}')).capture_id
    await waitFor(() => s.captures().length === 3, 5000, 'the live capture')
    const list = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null })).data
    // The GET recorded itself; the stream did not.
    assert.deepEqual(
      list.map((c: { method: string }) => c.method),
      ['GET', 'POST', 'POST', 'POST'],
    )
    assert.deepEqual(
      s.captures()[2],
      list.find((c: { id: string }) => c.id === third),
    )
    await waitFor(() => s.captures().length === 4, 5000, 'the GET capture')
    // Each capture's event id is the capture id (what Last-Event-ID resumes after, on any node); ready's is
    // where the stream starts (before every capture here).
    assert.equal(s.events[0].id, `whc_${'0'.repeat(26)}`)
    assert.deepEqual(
      s.events.filter((e) => e.event === 'capture').map((e) => e.id),
      s.captures().map((c) => c.id),
    )
    s.close()
  })

  it('shows our test delivery with its signature diagnostics as it arrives', async () => {
    const token = randomToken()
    const s = await open(`/sandbox/v2/webhooks/playground/${token}/stream`)
    await waitFor(() => s.events.length === 1, 5000, 'ready')
    const ep = await createEndpoint(h, `${base}/sandbox/v2/webhooks/playground/${token}`)
    const delivery = await sendTest(h, ep.id)
    const [c] = await waitFor(() => (s.captures().length ? s.captures() : null), 15_000, 'the delivery')
    assert.equal(c.method, 'POST')
    assert.equal(c.headers['svc-delivery-id'], delivery.id)
    assert.equal(c.signature.delivery_id, delivery.id)
    assert.equal(c.signature.result, 'valid')
    s.close()
  })

  it('with after, only later captures; a capture written by another node (straight to the database) shows too', async () => {
    const token = randomToken()
    const first = json(await post(token, '{"n":1}')).capture_id
    const second = json(await post(token, '{"n":2}')).capture_id
    const s = await open(`/v2/webhooks/playground/${token}/stream?after=${first}`)
    await waitFor(() => s.captures().length === 1, 5000, 'the capture after')
    assert.equal(s.captures()[0].id, second)
    const id = newId('whc')
    await repo.insertCapture(h.app.kernel.db, {
      id,
      token,
      mode: 'live',
      method: 'PUT',
      path: `/v2/webhooks/playground/${token}`,
      query: '{}',
      headers: '{}',
      content_type: null,
      body: '',
      body_encoding: 'utf8',
      body_size: 0,
      body_truncated: 0,
      source_ip: '10.0.0.2',
      delivery_id: null,
      signature: null,
      received_at: new Date().toISOString(),
    })
    await waitFor(() => s.captures().length === 2, 5000, "the other node's capture")
    assert.deepEqual([s.captures()[1].id, s.captures()[1].method, s.captures()[1].source_ip], [id, 'PUT', '10.0.0.2'])
    // The live and sandbox inboxes are separate.
    await post(token, '{"sandbox":true}', true)
    await new Promise((r) => setTimeout(r, 700))
    assert.equal(s.captures().length, 2)
    s.close()
  })

  it('with follow=false, sends what is there and ends', async () => {
    const token = randomToken()
    const first = json(await post(token, '{"n":1}')).capture_id
    const res = await fetch(`${base}/v2/webhooks/playground/${token}/stream?follow=false`, { headers: { accept: 'text/event-stream' } })
    assert.equal(res.status, 200)
    const events: Sse[] = []
    const parser = createParser({ onEvent: (e) => events.push({ event: e.event, id: e.id, data: e.data }) })
    parser.feed(await res.text()) // resolves: the stream ended by itself
    assert.deepEqual(
      events.map((e) => e.event),
      ['ready', 'capture'],
    )
    assert.equal(JSON.parse(events[1].data).id, first)
  })

  it('resumes after Last-Event-ID as EventSource sends it: a new stream from that capture, on any node', async () => {
    const token = randomToken()
    const first = json(await post(token, '{"n":1}')).capture_id
    const second = json(await post(token, '{"n":2}')).capture_id
    // A server that never served a stream for this token: nothing in its memory, the database says where to go on.
    const s = await open(`/v2/webhooks/playground/${token}/stream`, { 'last-event-id': first })
    assert.equal(s.res.status, 200)
    await waitFor(() => s.events.length > 0, 5000, 'ready')
    assert.equal(s.events[0].id, first, 'ready says where the stream starts')
    await waitFor(() => s.captures().length === 1, 5000, 'the capture after the last one seen')
    assert.deepEqual(
      s.captures().map((c) => c.id),
      [second],
    )
    const third = json(await post(token, '{"n":3}')).capture_id
    await waitFor(() => s.captures().length === 2, 5000, 'the live capture')
    assert.equal(s.captures()[1].id, third)
    s.close()
    const bad = await fetch(`${base}/v2/webhooks/playground/${token}/stream`, { headers: { accept: 'text/event-stream', 'last-event-id': 'sse_abc:3' } })
    assert.equal(bad.status, 422)
    const problem = await bad.json()
    assert.equal(problem.code, 'validation_failed')
    assert.equal(problem.errors[0].pointer, '/headers/last-event-id')
  })

  it('answers a malformed token with 404 and a malformed after with 422, as problems', async () => {
    const bad = await fetch(`${base}/v2/webhooks/playground/short/stream`, { headers: { accept: 'text/event-stream' } })
    assert.equal(bad.status, 404)
    assert.equal((await bad.json()).code, 'playground_token_invalid')
    const badAfter = await fetch(`${base}/v2/webhooks/playground/${randomToken()}/stream?after=nope`, { headers: { accept: 'text/event-stream' } })
    assert.equal(badAfter.status, 422)
    assert.equal((await badAfter.json()).code, 'validation_failed')
  })
})
