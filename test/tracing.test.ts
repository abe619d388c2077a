import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { flushTracing } from '../src/kernel/tracing/tracing.js'
import { sdkLoaded, startOtlpReceiver, type ReceivedSpan } from '../src/kernel/tracing/tracing.testkit.js'
import { createTestApp, ENGINE, ok, type TestApp } from './helpers.js'

// OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT): the spans of a request, its statements, the jobs it caused
// and their outbound calls reach a local OTLP/HTTP receiver as one trace. Tracing is process-wide, so this
// file runs alone in its process; test/tracing-off.test.ts checks the service without it.
describe('OpenTelemetry traces exported over OTLP/HTTP', () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>
  let h: TestApp
  let hooks: Server
  let hookUrl: string
  const received: string[] = []
  const SECRET_EMAIL = 'ada.lovelace.private@example.com'
  const SECRET_TEXT = 'my card number is 4111 1111 1111 1111'

  before(async () => {
    otlp = await startOtlpReceiver()
    hooks = createServer((req, res) => {
      received.push(String(req.headers.traceparent ?? ''))
      req.resume().on('end', () => res.writeHead(204).end())
    })
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
    hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks`
    h = await createTestApp({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20collector-token', OTEL_SERVICE_NAME: 'svc-under-test' },
    })
  })
  after(async () => {
    await h.close()
    await otlp.close()
    await new Promise<void>((resolve) => hooks.close(() => resolve()))
  })

  const inTrace = (traceId: string) => otlp.spans.filter((s) => s.traceId === traceId)
  const children = (of: ReceivedSpan) => otlp.spans.filter((s) => s.parentSpanId === of.spanId && s.traceId === of.traceId)

  it('continues an incoming traceparent: request → statements → jobs → outbound call, one trace', async () => {
    await ok(h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: hookUrl } }), 201)
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const callerSpan = '00f067aa0ba902b7'
    const created = await h.request({
      method: 'POST',
      url: '/sandbox/v2/inbox/conversations',
      key: h.a.test,
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      payload: { contact: { email: SECRET_EMAIL }, message: { content: SECRET_TEXT } },
    })
    assert.equal(created.statusCode, 201, created.body)
    await h.drainJobs()
    await h.drainJobs()
    await flushTracing()

    const trace = inTrace(traceId)
    if (process.env.DUMP_SPANS) console.log(trace.map((s) => `${s.spanId} <- ${s.parentSpanId} ${s.kind} ${s.name}`).join('\n'))
    const server = trace.find((s) => s.kind === 2)
    assert.ok(server, 'a server span in the caller’s trace')
    assert.equal(server.name, 'POST /sandbox/v2/inbox/conversations', 'named by the route template')
    assert.equal(server.parentSpanId, callerSpan, 'its parent is the caller’s span')
    assert.equal(server.attributes['http.response.status_code'], 201)
    assert.equal(server.attributes['svc.request_id'], created.headers['x-request-id'])

    const statements = children(server).filter((s) => s.attributes['db.system.name'] === (ENGINE === 'postgres' ? 'postgresql' : 'sqlite'))
    assert.ok(
      statements.some((s) => s.name === 'INSERT inbox_conversations'),
      `statements: ${statements.map((s) => s.name).join(', ')}`,
    )
    assert.ok(
      statements.some((s) => s.name === 'INSERT jobs'),
      'the job was enqueued inside the request’s span',
    )

    const jobs = trace.filter((s) => s.name.startsWith('job '))
    assert.ok(jobs.length >= 2, `the event's dispatch and its delivery: ${jobs.map((s) => s.name).join(', ')}`)
    const ids = new Set(trace.map((s) => s.spanId))
    for (const j of jobs) assert.ok(ids.has(j.parentSpanId), `${j.name}'s parent is a span of the trace`)
    const first = jobs.find((j) => j.parentSpanId === server.spanId)
    assert.ok(first, 'a job span whose parent is the request that enqueued it')
    assert.equal(first.kind, 5, 'a consumer span')
    assert.ok(
      children(first).some((s) => s.name.startsWith('job ') || s.attributes['db.system.name']),
      'the job’s own work is under it',
    )

    const outbound = trace.find((s) => s.kind === 3 && s.attributes['http.request.method'] === 'POST' && s.attributes['server.address'] === '127.0.0.1')
    assert.ok(outbound, 'the webhook delivery’s outbound call')
    assert.ok(
      jobs.some((j) => j.spanId === outbound.parentSpanId),
      'made inside the delivery job’s span',
    )
    assert.equal(outbound.attributes['http.response.status_code'], 204)
    assert.ok(received.includes(`00-${traceId}-${outbound.spanId}-01`), `the receiver is handed the trace: ${received.join(', ')}`)

    // What spans never carry: parameter values, bodies, credentials, URL paths.
    const exported = otlp.bodies.join('\n')
    for (const secret of [SECRET_EMAIL, SECRET_TEXT, h.a.test, '/hooks', 'collector-token']) assert.ok(!exported.includes(secret), `${secret} is not exported`)
    assert.equal(otlp.headers[0].authorization, 'Bearer collector-token', 'OTEL_EXPORTER_OTLP_HEADERS go with each export')
    assert.ok(exported.includes('svc-under-test'), 'OTEL_SERVICE_NAME is the service.name')
    assert.ok(sdkLoaded())
  })

  it('starts a trace of its own without a traceparent, and a malformed one is ignored', async () => {
    const before = new Set(otlp.spans.map((s) => s.traceId))
    const res = await h.request({ method: 'GET', url: '/v2/inbox/conversations', headers: { traceparent: '00-zz-not-a-trace-01' } })
    assert.equal(res.statusCode, 200)
    await flushTracing()
    const server = otlp.spans.find((s) => s.kind === 2 && !before.has(s.traceId) && s.name === 'GET /v2/inbox/conversations')
    assert.ok(server)
    assert.equal(server.parentSpanId, '', 'a root span')
    assert.ok(children(server).some((s) => s.name === 'SELECT inbox_conversations'))
  })
})
