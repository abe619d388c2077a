import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { createEventSource } from 'eventsource-client'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { FastifyInstance } from 'fastify'
import createClient from 'openapi-fetch'
import { Type } from 'typebox'
import { createTestApp, type TestApp } from '../../../test/helpers.js'
import { AppError, notFound } from '../errors.js'
import { defineRoute, type AnyRoute } from './define-route.js'
import { createHttpServer } from './server.js'

// ajv-formats is CommonJS; under ESM its function may sit on .default.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

// A throwaway SSE operation on a server built from the real kernel of a test app (its database, keys
// and services) with this route table only: the kernel part of SSE, no module's knowledge.
const GRACE_MS = 400
const KEEP_MS = 1500
const HEARTBEAT_MS = 100
interface Track {
  calls: number
  abortedAt?: number
  reason?: unknown
}
const tracks = new Map<string, Track>()
const track = (id: string): Track => tracks.get(id) ?? (tracks.set(id, { calls: 0 }), tracks.get(id)!)

const StepEvent = Type.Object({ step: Type.Integer({ minimum: 0 }) }, { title: 'SseTestEvent', additionalProperties: false })
const streamRoute = defineRoute({
  operationId: 'streamSseTest',
  method: 'POST',
  url: '/sse-test/{id}/run',
  module: 'ssetest',
  scope: 'write',
  summary: 'Run a test job as an event stream',
  sse: {
    heartbeatMs: HEARTBEAT_MS,
    resumeGraceMs: GRACE_MS,
    keepMs: KEEP_MS,
    events: { 'step.started': 'a step began', 'step.completed': 'a step ended', completed: 'the job is done' },
  },
  errors: ['resource_not_found', 'conflict', 'unprocessable'],
  schema: {
    params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
    body: Type.Object(
      {
        steps: Type.Integer({ minimum: 0, maximum: 100 }),
        delay_ms: Type.Optional(Type.Integer({ minimum: 0 })),
        fail_at: Type.Optional(Type.Integer()),
        conflict: Type.Optional(Type.Boolean()),
        quiet_abort: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    response: { 200: StepEvent },
  },
  handler: async ({ params, body, stream }) => {
    if (params.id === 'missing') throw notFound('test job', params.id)
    if (body.conflict) throw new AppError('conflict', 'The test job is busy.')
    const t = track(params.id)
    t.calls++
    stream.signal.addEventListener('abort', () => {
      t.abortedAt = Date.now()
      t.reason = stream.signal.reason
    })
    for (let i = 1; i <= body.steps; i++) {
      stream.send('step.started', { step: i })
      if (body.quiet_abort) {
        await sleep(body.delay_ms ?? 0)
        if (stream.signal.aborted) return
      } else await sleep(body.delay_ms ?? 0, undefined, { signal: stream.signal })
      if (body.fail_at === i) throw new AppError('unprocessable', `Step ${i} failed.`)
      stream.send('step.completed', { step: i })
    }
    stream.send('completed', { step: body.steps })
  },
})
const ROUTES: AnyRoute[] = [streamRoute]

interface Collected {
  status: number
  headers: Headers
  events: EventSourceMessage[]
  comments: string[]
  retry: number | null
}

describe('kernel: Server-Sent Events routes', () => {
  let h: TestApp
  let server: FastifyInstance
  let base: string
  let seq = 0
  const nextId = () => `job-${++seq}`

  async function listen(): Promise<{ server: FastifyInstance; base: string }> {
    const s = await createHttpServer(h.app.kernel, h.app.services, ROUTES, { counters: null })
    await s.listen({ port: 0, host: '127.0.0.1' })
    return { server: s, base: `http://127.0.0.1:${(s.server.address() as AddressInfo).port}` }
  }

  function post(id: string, body: unknown, opts: { key?: string | null; lastEventId?: string; signal?: AbortSignal; headers?: Record<string, string>; url?: string } = {}): Promise<Response> {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream', ...opts.headers }
    const key = opts.key === undefined ? h.a.live : opts.key
    if (key) headers.authorization = `Bearer ${key}`
    if (opts.lastEventId) headers['last-event-id'] = opts.lastEventId
    return fetch(opts.url ?? `${base}/v2/sse-test/${id}/run`, { method: 'POST', headers, body: JSON.stringify(body), signal: opts.signal })
  }

  /** Reads the stream with eventsource-parser until it ends, or until `stopAfter` events (then disconnects). */
  async function collect(res: Response, stop?: { after: number; abort: AbortController }): Promise<Collected> {
    const out: Collected = { status: res.status, headers: res.headers, events: [], comments: [], retry: null }
    const parser = createParser({ onEvent: (e) => out.events.push(e), onComment: (c) => out.comments.push(c.trim()), onRetry: (ms) => (out.retry = ms) })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        parser.feed(decoder.decode(value, { stream: true }))
        if (stop && out.events.length >= stop.after) {
          stop.abort.abort()
          break
        }
      }
    } catch (err) {
      if (!stop?.abort.signal.aborted) throw err
    }
    return out
  }

  const names = (c: Collected) => c.events.map((e) => `${e.event}:${JSON.parse(e.data).step ?? JSON.parse(e.data).code}`)
  const seqOf = (id: string | undefined) => Number(id!.split(':')[1])

  before(async () => {
    h = await createTestApp()
    ;({ server, base } = await listen())
  })
  after(async () => {
    await server.close()
    await h.close()
  })

  it('frames one event per send with kernel ids, retry, and the SSE headers', async () => {
    const id = nextId()
    const res = await post(id, { steps: 2 }, { headers: { 'x-request-id': 'sse-test-1' } })
    assert.equal(res.status, 200)
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8')
    assert.equal(res.headers.get('cache-control'), 'no-cache')
    assert.equal(res.headers.get('x-accel-buffering'), 'no')
    assert.equal(res.headers.get('x-request-id'), 'sse-test-1')
    assert.ok(res.headers.get('x-ratelimit-limit'), 'rate limits apply')
    const c = await collect(res)
    assert.deepEqual(names(c), ['step.started:1', 'step.completed:1', 'step.started:2', 'step.completed:2', 'completed:2'])
    assert.equal(c.retry, GRACE_MS / 2, 'clients reconnect within the grace period')
    const streamId = c.events[0].id!.split(':')[0]
    assert.match(streamId, /^sse_[A-Za-z0-9_-]{16,}$/)
    assert.deepEqual(
      c.events.map((e) => e.id),
      [1, 2, 3, 4, 5].map((n) => `${streamId}:${n}`),
    )
    assert.equal(track(id).calls, 1)
  })

  it('sends a `: ping` comment every heartbeatMs', async () => {
    const c = await collect(await post(nextId(), { steps: 1, delay_ms: 5 * HEARTBEAT_MS + 50 }))
    assert.deepEqual(names(c), ['step.started:1', 'step.completed:1', 'completed:1'])
    const pings = c.comments.filter((x) => x === 'ping').length
    assert.ok(pings >= 3 && pings <= 6, `${pings} pings in ${5 * HEARTBEAT_MS + 50} ms at ${HEARTBEAT_MS} ms`)
  })

  it('answers errors before the first event as problem+json with their status, not as a stream', async () => {
    const cases: [string, unknown, { key?: string | null }, number, string][] = [
      [nextId(), { steps: 'x' }, {}, 422, 'validation_failed'],
      ['missing', { steps: 1 }, {}, 404, 'resource_not_found'],
      [nextId(), { steps: 1, conflict: true }, {}, 409, 'conflict'],
      [nextId(), { steps: 1 }, { key: null }, 401, 'unauthorized'],
      [nextId(), { steps: 1 }, { key: await h.key(['read']) }, 403, 'insufficient_scope'],
    ]
    for (const [id, body, opts, status, code] of cases) {
      const res = await post(id, body, opts)
      assert.equal(res.status, status, code)
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/)
      const problem = (await res.json()) as { code: string; status: number; request_id: string }
      assert.equal(problem.code, code)
      assert.equal(problem.status, status)
      assert.equal(problem.request_id, res.headers.get('x-request-id'))
      assert.equal(track(id).calls, 0)
    }
    const bad = (await (await post(nextId(), { steps: 'x' })).json()) as { errors: { pointer: string }[] }
    assert.deepEqual(
      bad.errors.map((e) => e.pointer),
      ['/body/steps'],
    )
  })

  it('turns an error after the stream started into a final `error` event carrying the problem', async () => {
    const c = await collect(await post(nextId(), { steps: 3, fail_at: 2 }))
    assert.equal(c.status, 200)
    assert.deepEqual(names(c), ['step.started:1', 'step.completed:1', 'step.started:2', 'error:unprocessable'])
    const problem = JSON.parse(c.events.at(-1)!.data)
    assert.equal(problem.status, 422)
    assert.equal(problem.detail, 'Step 2 failed.')
    assert.match(problem.type, /\/errors\/unprocessable$/)
    assert.equal(seqOf(c.events.at(-1)!.id), 4)
  })

  it('resumes with Last-Event-ID: replays what was missed, continues live, never runs the handler again', async () => {
    const id = nextId()
    const first = new AbortController()
    const a = await collect(await post(id, { steps: 4, delay_ms: 150 }, { signal: first.signal }), { after: 2, abort: first })
    const lastSeen = a.events.at(-1)!.id!
    await sleep(200) // an event is missed while disconnected (within the grace period)
    const b = await collect(await post(id, { steps: 4, delay_ms: 150 }, { lastEventId: lastSeen }))
    assert.equal(b.status, 200)
    const all = [...a.events, ...b.events]
    assert.deepEqual(
      all.map((e) => seqOf(e.id)),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
    assert.deepEqual(names(b).at(-1), 'completed:4')
    assert.equal(track(id).calls, 1, 'the handler ran once')
    assert.equal(track(id).abortedAt, undefined, 'a resume within the grace period keeps the work running')

    // Nothing left to deliver on an ended stream: 204 (EventSource clients stop reconnecting).
    const done = await post(id, { steps: 4, delay_ms: 150 }, { lastEventId: all.at(-1)!.id })
    assert.equal(done.status, 204)
    // An earlier id replays from there and ends.
    const again = await collect(await post(id, { steps: 4, delay_ms: 150 }, { lastEventId: all[5].id }))
    assert.deepEqual(
      again.events.map((e) => seqOf(e.id)),
      [7, 8, 9],
    )
    assert.equal(track(id).calls, 1)
  })

  it('refuses to resume an unknown, foreign, other-path, future or malformed stream id', async () => {
    const id = nextId()
    const c = await collect(await post(id, { steps: 1 }))
    const [streamId] = c.events[0].id!.split(':')
    const expect = async (res: Response, status: number, code: string) => {
      assert.equal(res.status, status, code)
      assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/)
      assert.equal(((await res.json()) as { code: string }).code, code)
    }
    await expect(await post(id, { steps: 1 }, { lastEventId: 'sse_AAAAAAAAAAAAAAAAAAAAAA:1' }), 404, 'stream_not_found')
    const other = await h.key(['write'], { workspaceId: h.b.workspaceId })
    await expect(await post(id, { steps: 1 }, { lastEventId: `${streamId}:1`, key: other }), 404, 'stream_not_found')
    await expect(await post(nextId(), { steps: 1 }, { lastEventId: `${streamId}:1` }), 404, 'stream_not_found')
    await expect(await post(id, { steps: 1 }, { lastEventId: `${streamId}:99` }), 404, 'stream_not_found')
    await expect(await post(id, { steps: 1 }, { lastEventId: 'not-an-id' }), 422, 'validation_failed')
    assert.equal(track(id).calls, 1)
  })

  it('forgets an ended stream after keepMs', async () => {
    const id = nextId()
    const c = await collect(await post(id, { steps: 1 }))
    const kept = await post(id, { steps: 1 }, { lastEventId: c.events[0].id })
    assert.equal(kept.status, 200)
    assert.equal((await collect(kept)).events.length, 2)
    await sleep(KEEP_MS + 200)
    const res = await post(id, { steps: 1 }, { lastEventId: c.events[0].id })
    assert.equal(res.status, 404)
    assert.equal(((await res.json()) as { code: string }).code, 'stream_not_found')
  })

  it('aborts stream.signal when the client leaves and does not come back within the grace period', async () => {
    const id = nextId()
    const ac = new AbortController()
    const a = await collect(await post(id, { steps: 100, delay_ms: 50 }, { signal: ac.signal }), { after: 1, abort: ac })
    const leftAt = Date.now()
    for (let i = 0; i < 60 && track(id).abortedAt === undefined; i++) await sleep(50)
    const t = track(id)
    assert.ok(t.abortedAt !== undefined, 'the work was stopped')
    const waited = t.abortedAt - leftAt
    assert.ok(waited >= GRACE_MS - 50 && waited < GRACE_MS + 1000, `aborted ${waited} ms after the disconnect (grace ${GRACE_MS} ms)`)
    assert.ok(t.reason instanceof AppError && t.reason.code === 'stream_abandoned')
    // A late client still gets what was kept, ending with the reason the work stopped.
    const late = await collect(await post(id, { steps: 100 }, { lastEventId: a.events.at(-1)!.id }))
    assert.equal(late.events.at(-1)!.event, 'error')
    assert.equal(JSON.parse(late.events.at(-1)!.data).code, 'stream_abandoned')
    assert.equal(t.calls, 1)
  })

  it('works with a reconnecting EventSource client (eventsource-client): a dropped connection resumes, each event once, then 204 stops it', async () => {
    const id = nextId()
    let connections = 0
    const dropAfterBytes = 120
    const es = createEventSource({
      url: `${base}/v2/sse-test/${id}/run`,
      method: 'POST',
      headers: { authorization: `Bearer ${h.a.live}`, 'content-type': 'application/json' },
      body: JSON.stringify({ steps: 3, delay_ms: 100 }),
      // The first connection breaks mid-stream, as a flaky network would.
      fetch: async (url, init) => {
        const res = await fetch(url, init)
        if (++connections > 1 || !res.body) return res
        const reader = res.body.getReader()
        let seen = 0
        const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
          async pull(controller) {
            const { done, value } = await reader.read()
            if (done || seen > dropAfterBytes) {
              await reader.cancel()
              controller.error(new Error('connection reset'))
              return
            }
            seen += value.byteLength
            controller.enqueue(value)
          },
        })
        return { body, url: res.url, status: res.status, redirected: res.redirected }
      },
    })
    const got: EventSourceMessage[] = []
    for await (const e of es) got.push(e)
    assert.ok(connections >= 2, `the client reconnected (${connections} connections)`)
    assert.deepEqual(
      got.map((e) => seqOf(e.id)),
      [1, 2, 3, 4, 5, 6, 7],
    )
    assert.deepEqual(got.map((e) => e.event).at(-1), 'completed')
    assert.equal(es.readyState, 'closed', 'the final 204 stopped the client')
    assert.equal(track(id).calls, 1)
  })

  it('Idempotency-Key: a repeat replays the stream that ended well, without running it again; 409 while it runs or with another body', async () => {
    const id = nextId()
    const key = { 'idempotency-key': `sse-${id}` }
    const running = post(id, { steps: 2, delay_ms: 150 }, { headers: key })
    const first = await running
    assert.equal(first.status, 200)
    // While the first runs: in progress (a resume would send Last-Event-ID instead).
    const meanwhile = await post(id, { steps: 2, delay_ms: 150 }, { headers: key })
    assert.equal(meanwhile.status, 409)
    assert.equal(((await meanwhile.json()) as { code: string }).code, 'idempotency_request_in_progress')
    const original = await collect(first)
    assert.deepEqual(names(original), ['step.started:1', 'step.completed:1', 'step.started:2', 'step.completed:2', 'completed:2'])
    let replayed: Collected | undefined
    for (let i = 0; i < 50 && !replayed; i++) {
      const res = await post(id, { steps: 2, delay_ms: 150 }, { headers: key })
      if (res.status === 409) await sleep(20)
      else replayed = await collect(res)
    }
    assert.equal(replayed!.status, 200)
    assert.equal(replayed!.headers.get('idempotent-replayed'), 'true')
    assert.match(String(replayed!.headers.get('content-type')), /^text\/event-stream/)
    // The same events with the same ids, and the work ran once.
    assert.deepEqual(
      replayed!.events.map((e) => [e.id, e.event, e.data]),
      original.events.map((e) => [e.id, e.event, e.data]),
    )
    assert.equal(track(id).calls, 1)
    const other = await post(id, { steps: 3 }, { headers: key })
    assert.equal(other.status, 409)
    assert.equal(((await other.json()) as { code: string }).code, 'idempotency_key_reused')
  })

  it('Idempotency-Key: a stream that ended with an error event is not kept (a retry runs again), and a resume is not a repeat', async () => {
    const id = nextId()
    const key = { 'idempotency-key': `sse-${id}` }
    const failed = await collect(await post(id, { steps: 2, fail_at: 1 }, { headers: key }))
    assert.equal(failed.events.at(-1)!.event, 'error')
    let again: Collected | undefined
    for (let i = 0; i < 50 && !again; i++) {
      const res = await post(id, { steps: 2, fail_at: 1 }, { headers: key })
      if (res.status === 409) await sleep(20)
      else again = await collect(res)
    }
    assert.equal(again!.headers.get('idempotent-replayed'), null)
    assert.equal(track(id).calls, 2)
    // A client that lost the connection resumes with the key it sent and Last-Event-ID: it gets the rest.
    const id2 = nextId()
    const key2 = { 'idempotency-key': `sse-${id2}` }
    const abort = new AbortController()
    const part = await collect(await post(id2, { steps: 3, delay_ms: 50 }, { headers: key2, signal: abort.signal }), { after: 1, abort })
    const rest = await collect(await post(id2, { steps: 3, delay_ms: 50 }, { headers: key2, lastEventId: part.events[0].id }))
    assert.equal(rest.status, 200)
    assert.equal(rest.events.at(-1)!.event, 'completed')
    assert.equal(track(id2).calls, 1)
  })

  it('documents the operation as text/event-stream in the OpenAPI document (Redocly-clean) and is callable with openapi-fetch', async () => {
    const doc = (await (await fetch(`${base}/v2/openapi.json`)).json()) as Record<string, any>
    const op = doc.paths['/sse-test/{id}/run'].post
    assert.deepEqual(Object.keys(op.responses['200'].content), ['text/event-stream'])
    assert.match(op.responses['200'].description, /`step\.started`: a step began/)
    assert.match(op.responses['200'].description, /`error`: /)
    assert.ok(op.responses['204'])
    assert.match(op.responses['404'].description, /stream_not_found/)
    assert.match(op.responses['409'].description, /idempotency_request_in_progress/)
    assert.ok(op.responses['200'].headers['Idempotent-Replayed'])
    const params = op.parameters.map((p: { $ref?: string; name?: string }) => p.$ref ?? p.name)
    assert.ok(params.includes('#/components/parameters/LastEventId'))
    assert.ok(params.includes('#/components/parameters/IdempotencyKey'))

    // Each event's data validates against the schema the document declares (as test/generated-client.test.ts checks).
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormats(ajv)
    ajv.addSchema(doc, 'openapi.json')
    const validate = ajv.compile({ $ref: 'openapi.json#/paths/~1sse-test~1{id}~1run/post/responses/200/content/text~1event-stream/schema' })
    const client = createClient<any>({ baseUrl: `${base}/v2`, headers: { authorization: `Bearer ${h.a.live}` } })
    for (const body of [{ steps: 2 }, { steps: 2, fail_at: 1 }]) {
      const { response, data } = await client.POST('/sse-test/{id}/run', { params: { path: { id: nextId() } }, body, parseAs: 'stream' })
      assert.equal(response.status, 200)
      const events: EventSourceMessage[] = []
      const reader = (data as ReadableStream<Uint8Array<ArrayBuffer>>).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader()
      for (let r = await reader.read(); !r.done; r = await reader.read()) events.push(r.value)
      assert.ok(events.length > 0)
      for (const e of events) assert.ok(validate(JSON.parse(e.data)), `${e.event} ${e.data}: ${ajv.errorsText(validate.errors)}`)
    }

    const dir = mkdtempSync(join(tmpdir(), 'svc-sse-lint-'))
    try {
      writeFileSync(
        join(dir, 'openapi.json'),
        JSON.stringify({ ...doc, servers: doc.servers.map((s: { url: string }) => ({ ...s, url: s.url.replace(/^http:\/\/localhost(:\d+)?/, 'https://api.svc.test') })) }),
      )
      const run = spawnSync(process.execPath, [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', '--extends=recommended-strict', '--format=json', 'openapi.json'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      })
      const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string; location: { pointer: string }[] }[] }
      const listed = report.problems.map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`).join('\n')
      assert.equal(report.totals.errors + report.totals.warnings, 0, listed)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('ends running streams when the server closes: the signal aborts and a final `error` event says why', async () => {
    const own = await listen()
    const id = nextId()
    // A handler that returns quietly once aborted: the kernel still ends the stream with the reason.
    const res = await post(id, { steps: 100, delay_ms: 50, quiet_abort: true }, { url: `${own.base}/v2/sse-test/${id}/run` })
    const reading = collect(res)
    await sleep(120)
    await own.server.close()
    const c = await reading
    assert.equal(c.events.at(-1)!.event, 'error')
    assert.equal(JSON.parse(c.events.at(-1)!.data).code, 'service_unavailable')
    assert.ok(track(id).abortedAt !== undefined)
  })
})
