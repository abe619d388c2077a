import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
// @ts-expect-error no types shipped
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { createTestApp, json, type TestApp } from './helpers.js'

type Family = { name: string; type: string; metrics: { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string }[] }

describe('GET /metrics', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { METRICS_TOKEN: 'scrape-secret' } })))
  after(() => h.close())

  let raw = ''
  const scrape = async (): Promise<Family[]> => {
    const res = await h.http().inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer scrape-secret' } })
    assert.equal(res.statusCode, 200)
    assert.match(String(res.headers['content-type']), /^text\/plain/)
    raw = res.body
    return parsePrometheusTextFormat(res.body) as Family[]
  }
  const requestsFor = (families: Family[], operationId: string, status: string) =>
    Number(families.find((f) => f.name === 'svc_http_requests_total')?.metrics.find((m) => m.labels?.operation_id === operationId && m.labels?.status === status)?.value ?? 0)

  it('without a token, answers loopback clients only (unless METRICS_PUBLIC=true)', async () => {
    const open = await createTestApp()
    const pub = await createTestApp({ env: { METRICS_PUBLIC: 'true' } })
    try {
      assert.equal((await open.http().inject({ method: 'GET', url: '/metrics' })).statusCode, 200)
      assert.equal((await open.http().inject({ method: 'GET', url: '/metrics', remoteAddress: '::1' })).statusCode, 200)
      const remote = await open.http().inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })
      assert.equal(remote.statusCode, 403)
      assert.equal(json(remote).code, 'forbidden')
      assert.equal((await pub.http().inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' })).statusCode, 200)
    } finally {
      await open.close()
      await pub.close()
    }
  })

  it('needs the metrics token when one is configured', async () => {
    assert.equal((await h.http().inject({ method: 'GET', url: '/metrics' })).statusCode, 401)
    assert.equal((await h.http().inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer wrong' } })).statusCode, 401)
  })

  it('parses as Prometheus text and moves when traffic flows', async () => {
    const before = await scrape()
    for (const name of [
      'svc_http_requests_total',
      'svc_http_request_duration_seconds',
      'svc_job_queue_depth',
      'svc_job_queue_oldest_due_age_seconds',
      'svc_db_pool_connections',
      'svc_jobs_finished_total',
    ]) {
      assert.ok(
        before.some((f) => f.name === name),
        `missing ${name}`,
      )
    }
    const ok0 = requestsFor(before, 'getCurrentWorkspace', '200')
    const nf0 = requestsFor(before, 'getWorkspace', '404')
    for (let i = 0; i < 3; i++) await h.request({ method: 'GET', url: '/v2/workspaces/current' })
    await h.request({ method: 'GET', url: '/v2/workspaces/ws_nope' })
    const afterScrape = await scrape()
    assert.equal(requestsFor(afterScrape, 'getCurrentWorkspace', '200'), ok0 + 3)
    assert.equal(requestsFor(afterScrape, 'getWorkspace', '404'), nf0 + 1)
    const hist = afterScrape.find((f) => f.name === 'svc_http_request_duration_seconds')!
    assert.equal(hist.type, 'HISTOGRAM')
    const count = /svc_http_request_duration_seconds_count\{operation_id="getCurrentWorkspace",method="GET",status="200"\} (\d+)/.exec(raw)
    assert.ok(count && Number(count[1]) >= 3, 'latency histogram counts the requests')
  })

  it('reports webhook delivery outcomes', async () => {
    const { createServer } = await import('node:http')
    const receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()))
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    const port = (receiver.address() as { port: number }).port
    try {
      const ep = await h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: `http://127.0.0.1:${port}/hook` } })
      assert.equal(ep.statusCode, 201, ep.body)
      const t = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${JSON.parse(ep.body).id}/test`, key: h.a.test, payload: {} })
      assert.ok(t.statusCode < 300, t.body)
      await h.app.kernel.jobs.drain()
      await scrape()
      assert.match(raw, /svc_webhooks_deliveries\{status="succeeded",mode="test"\} [1-9]/)
      assert.match(raw, /svc_webhooks_attempts\{outcome="succeeded",mode="test"\} [1-9]/)
    } finally {
      receiver.close()
    }
  })
})
