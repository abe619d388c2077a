import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { createServer } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { promisify } from 'node:util'
import { startOtlpReceiver } from '../src/kernel/tracing/tracing.testkit.js'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { startServer, svc, type ServerProcess } from './spawn.js'

const run = promisify(execFile)
const ROOT = new URL('..', import.meta.url).pathname

// `npm start` runs the esbuild bundle, not the sources the other tests load through tsx: boot the real
// bundle and drive what depends on how it was built (dependencies inside it, lazy ones outside it, the
// worker and its HTTP client, the generated OpenAPI document, metrics).
describe(`the built bundle (npm start, ${ENGINE})`, () => {
  let db: TestDatabase
  let server: ServerProcess
  let key: string
  const receiver = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received.push(String(req.headers['svc-event-id']))
      res.writeHead(204).end()
    })
  })
  const received: string[] = []
  before(async () => {
    await run(process.execPath, ['scripts/build.mjs'], { cwd: ROOT })
    db = await createTestDatabase()
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bundle', '--json'], db.env))
    key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--sandbox', '--json'], db.env)).key
    server = await startServer({ ...db.env, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', JOB_POLL_INTERVAL_MS: '50' }, [], 'dist/main.js')
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  })
  after(async () => {
    await server?.stop()
    receiver.close()
    await db?.drop()
  })

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
    return { status: r.status, body: r.headers.get('content-type')?.includes('json') ? await r.json() : await r.text() }
  }

  it('answers operations, validation problems and the OpenAPI document', async () => {
    assert.equal((await call('GET', '/sandbox/v2/workspaces/current')).status, 200)
    const created = await call('POST', '/sandbox/v2/inbox/conversations', { channel: 'chat', contact: { name: 'Ada' }, message: { content: 'Hello' } })
    assert.equal(created.status, 201)
    const bad = await call('POST', '/sandbox/v2/inbox/conversations', { channel: 'pigeon' })
    assert.equal(bad.status, 422)
    assert.equal(bad.body.code, 'validation_failed')
    const doc = await fetch(`${server.url}/v2/openapi.json`)
    assert.equal(doc.status, 200)
    assert.equal((await doc.json()).openapi, '3.1.0')
    assert.equal((await fetch(`${server.url}/metrics`)).status, 200)
  })

  it('parses a knowledge document in its ingest worker thread (dist/ingest.worker.js)', async () => {
    const kb = await call('POST', '/sandbox/v2/knowledge/bases', { name: 'Bundle' })
    assert.equal(kb.status, 201)
    const doc = await call('POST', `/sandbox/v2/knowledge/bases/${kb.body.id}/documents`, { title: 'Refunds', text: 'Refunds take five days to reach your card.' })
    assert.equal(doc.status, 202)
    let got = doc.body
    for (let i = 0; i < 400 && (got.status === 'queued' || got.status === 'processing'); i++) {
      await new Promise((r) => setTimeout(r, 50))
      got = (await call('GET', `/sandbox/v2/knowledge/documents/${doc.body.id}`)).body
    }
    assert.equal(got.status, 'ready', got.error)
    assert.equal(got.chunk_count, 1)
  })

  it('delivers a signed webhook from its worker', async () => {
    const port = (receiver.address() as { port: number }).port
    const endpoint = await call('POST', '/sandbox/v2/webhooks/endpoints', { url: `http://127.0.0.1:${port}/hook` })
    assert.equal(endpoint.status, 201)
    const sent = await call('POST', `/sandbox/v2/webhooks/endpoints/${endpoint.body.id}/test`, {})
    for (let i = 0; i < 200 && !received.includes(sent.body.event_id); i++) await new Promise((r) => setTimeout(r, 25))
    assert.ok(received.includes(sent.body.event_id), 'the test event reached the receiver')
  })

  it('with tracing configured, loads OpenTelemetry from outside the bundle and exports a request’s server span', async () => {
    const otlp = await startOtlpReceiver()
    const traced = await startServer({ ...db.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_SERVICE_NAME: 'bundle', OTEL_BSP_SCHEDULE_DELAY: '50' }, [], 'dist/main.js')
    try {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
      const res = await fetch(`${traced.url}/sandbox/v2/workspaces/current`, { headers: { authorization: `Bearer ${key}`, traceparent: `00-${traceId}-00f067aa0ba902b7-01` } })
      assert.equal(res.status, 200)
      for (let i = 0; i < 200 && !otlp.spans.some((s) => s.traceId === traceId); i++) await new Promise((r) => setTimeout(r, 25))
      assert.ok(
        otlp.spans.some((s) => s.traceId === traceId && s.parentSpanId === '00f067aa0ba902b7'),
        'the server span continues the caller’s trace',
      )
    } finally {
      await traced.stop()
      await otlp.close()
    }
  })
})
