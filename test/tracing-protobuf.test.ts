import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { flushTracing } from '../src/kernel/tracing/tracing.js'
import { startOtlpReceiver } from '../src/kernel/tracing/tracing.testkit.js'
import { createTestApp, ENGINE, ok, type TestApp } from './helpers.js'

// OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: a trace as test/tracing.test.ts's (which follows it into jobs), exported as OTLP/HTTP protobuf
// (application/x-protobuf) and read back by the receiver's wire-format reader. Tracing is process-wide: a file of its own.
describe('OpenTelemetry traces exported over OTLP/HTTP protobuf', () => {
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>
  let h: TestApp
  const SECRET_EMAIL = 'grace.hopper.private@example.com'

  before(async () => {
    otlp = await startOtlpReceiver()
    h = await createTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_SERVICE_NAME: 'svc-protobuf' } })
  })
  after(async () => {
    await h.close()
    await otlp.close()
  })

  it('continues an incoming traceparent: the request and its statements, one trace', async () => {
    const traceId = '0af7651916cd43dd8448eb211c80319c'
    const callerSpan = 'b7ad6b7169203331'
    const created = await h.request({
      method: 'POST',
      url: '/v2/inbox/conversations',
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
      payload: { contact: { email: SECRET_EMAIL }, message: { content: 'Hello' } },
    })
    assert.equal(created.statusCode, 201, created.body)
    await ok(h.request({ method: 'GET', url: `/v2/inbox/conversations/${JSON.parse(created.body).id}` }))
    await h.drainJobs()
    await flushTracing()

    assert.ok(otlp.headers.length > 0 && otlp.headers.every((x) => x['content-type'] === 'application/x-protobuf'), 'every export is protobuf')
    const trace = otlp.spans.filter((s) => s.traceId === traceId)
    const server = trace.find((s) => s.kind === 2)
    assert.ok(server, `a server span in the caller’s trace: ${trace.map((s) => s.name).join(', ')}`)
    assert.equal(server.name, 'POST /v2/inbox/conversations')
    assert.equal(server.parentSpanId, callerSpan)
    assert.equal(server.attributes['http.response.status_code'], 201)
    const statements = trace.filter((s) => s.parentSpanId === server.spanId && s.attributes['db.system.name'] === (ENGINE === 'postgres' ? 'postgresql' : 'sqlite'))
    assert.ok(
      statements.some((s) => s.name === 'INSERT inbox_conversations'),
      `statements: ${statements.map((s) => s.name).join(', ')}`,
    )
    const exported = otlp.bodies.join('\n')
    assert.ok(exported.includes('svc-protobuf'), 'OTEL_SERVICE_NAME is the service.name')
    assert.ok(!exported.includes(SECRET_EMAIL), 'no parameter value is exported')
  })
})
