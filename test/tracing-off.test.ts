import assert from 'node:assert/strict'
import { channel } from 'node:diagnostics_channel'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { currentTraceparent, tracingOn } from '../src/kernel/tracing/tracing.js'
import { sdkLoaded, startOtlpReceiver } from '../src/kernel/tracing/tracing.testkit.js'
import { loadConfig } from '../src/config.js'
import { createTestApp, ok, type TestApp } from './helpers.js'

// Tracing not configured (no OTEL_EXPORTER_OTLP_*ENDPOINT), or configured but OTEL_SDK_DISABLED=true: the SDK
// is never imported, nothing is registered with the API, no hook or channel subscriber exists, and an
// incoming traceparent is neither continued nor passed on. Its own process (tracing is process-wide).
describe('OpenTelemetry off', () => {
  let h: TestApp
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>
  let hooks: Server
  let hookUrl: string
  const received: (string | undefined)[] = []

  before(async () => {
    otlp = await startOtlpReceiver()
    hooks = createServer((req, res) => {
      received.push(req.headers.traceparent as string | undefined)
      req.resume().on('end', () => res.writeHead(204).end())
    })
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve))
    hookUrl = `http://127.0.0.1:${(hooks.address() as { port: number }).port}/hooks`
    // An endpoint is set, but the SDK is disabled: the standard switch wins.
    h = await createTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SDK_DISABLED: 'true' } })
  })
  after(async () => {
    await h.close()
    await otlp.close()
    await new Promise<void>((resolve) => hooks.close(() => resolve()))
  })

  it('loads no SDK, exports nothing, stores no traceparent and passes none on', async () => {
    assert.equal(h.config.tracing, null)
    await ok(h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: hookUrl } }), 201)
    const res = await h.request({
      method: 'POST',
      url: '/sandbox/v2/inbox/conversations',
      key: h.a.test,
      headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' },
      payload: { contact: { email: 'ada@example.com' }, message: { content: 'Hello' } },
    })
    assert.equal(res.statusCode, 201, res.body)
    await h.drainJobs()
    await h.drainJobs()
    await h.app.kernel.jobs.stop(0)

    assert.ok(received.length > 0, 'the webhooks were delivered')
    assert.deepEqual(
      received.filter((t) => t !== undefined),
      [],
      'no traceparent is sent',
    )
    const jobs = await h.app.kernel.db.selectFrom('jobs').select('traceparent').execute()
    assert.ok(jobs.length > 0)
    assert.ok(
      jobs.every((j) => j.traceparent === null),
      'no traceparent is stored with jobs',
    )
    assert.equal(otlp.bodies.length, 0, 'nothing is exported')

    assert.equal(tracingOn(), false)
    assert.equal(currentTraceparent(), null)
    assert.equal(sdkLoaded(), false, 'the OpenTelemetry SDK is not loaded')
    assert.equal((globalThis as Record<symbol, unknown>)[Symbol.for('opentelemetry.js.api.1')], undefined, 'no provider is registered with the API')
    assert.equal(channel('undici:request:create').hasSubscribers, false, 'outbound requests are not observed')
  })

  it('reads the standard OTEL_* variables, and refuses bad ones at start without echoing credentials', () => {
    assert.equal(loadConfig({}).tracing, null, 'no endpoint: off')
    const on = loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/', OTEL_EXPORTER_OTLP_HEADERS: 'x-token=a%2Cb, team = core', OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'X-Token=t2' })
    assert.equal(on.tracing?.endpoint, 'http://collector:4318/v1/traces')
    assert.deepEqual(on.tracing?.headers, { 'x-token': 't2', team: 'core' }, 'the TRACES_ headers win per key')
    assert.equal(on.tracing?.sampler, 'parentbased_always_on')
    const exact = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/custom',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    })
    assert.equal(exact.tracing?.endpoint, 'http://b:4318/custom')
    assert.equal(exact.tracing?.samplerRatio, 0.25)
    const base = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }
    assert.throws(() => loadConfig({ ...base, OTEL_TRACES_SAMPLER_ARG: '1.5' }), /OTEL_TRACES_SAMPLER_ARG/)
    assert.throws(() => loadConfig({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }), /OTEL_EXPORTER_OTLP_PROTOCOL/)
    assert.throws(() => loadConfig({ ...base, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc' }), /OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/)
    assert.equal(loadConfig(base).tracing?.protocol, 'http/json')
    assert.equal(loadConfig({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' }).tracing?.protocol, 'http/protobuf')
    assert.equal(loadConfig({ ...base, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }).tracing?.protocol, 'http/json', 'the TRACES_ variable wins')
    assert.throws(() => loadConfig({ ...base, OTEL_TRACES_SAMPLER: 'sometimes' }), /OTEL_TRACES_SAMPLER/)
    assert.throws(
      () => loadConfig({ ...base, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%ZZsecret-value' }),
      (err: Error) => /OTEL_EXPORTER_OTLP_HEADERS/.test(err.message) && !err.message.includes('secret-value'),
    )
  })
})
