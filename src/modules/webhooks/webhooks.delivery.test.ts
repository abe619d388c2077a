import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'
import { WEBHOOK_EVENTS } from './webhooks.events.js'
import { createEndpoint, getDelivery, sendTest, startReceiver, verifyStandardSignature, verifySvcSignature, waitFor, type Receiver } from './webhooks.testkit.js'

describe('webhook deliveries', () => {
  let h: TestApp
  const receivers: Receiver[] = []
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args)
    receivers.push(r)
    return r
  }
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_TIMEOUT_MS: '1500' } })
    h.app.kernel.jobs.start()
  })
  after(async () => {
    await h.close()
    await Promise.all(receivers.map((r) => r.close()))
  })

  it('signs every delivery so that an independent verifier accepts it, also during a secret rotation (two v1 values)', async () => {
    let secrets: string[] = []
    const verdicts: { svc: boolean; std: boolean; v1: number }[] = []
    const rx = await receiver((r) => {
      const header = r.headers['svc-status-signature'] as string
      verdicts.push({
        svc: secrets.every((s) => verifySvcSignature(header, r.body, s)),
        std: secrets.every((s) => verifyStandardSignature(r.headers, r.body, s)),
        v1: header.split(',').filter((p) => p.startsWith('v1=')).length,
      })
      return { status: 204 }
    })
    const ep = await createEndpoint(h, rx.url)
    secrets = [ep.secret]
    await sendTest(h, ep.id)
    await waitFor(() => rx.requests.length === 1)
    const rot = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/rotate-secret`, key: h.a.test, payload: { grace_period_seconds: 3600 } })
    assert.equal(rot.statusCode, 200, rot.body)
    const rotated = json(rot)
    assert.match(rotated.secret, /^whsec_/)
    assert.notEqual(rotated.secret, ep.secret)
    assert.ok(rotated.previous_secret_expires_at)
    secrets = [ep.secret, rotated.secret] // both must verify while the grace period lasts
    await sendTest(h, ep.id)
    await waitFor(() => rx.requests.length === 2)
    const now = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/rotate-secret`, key: h.a.test, payload: { grace_period_seconds: 0 } })
    secrets = [json(now).secret]
    await sendTest(h, ep.id)
    await waitFor(() => rx.requests.length === 3)
    assert.deepEqual(verdicts, [
      { svc: true, std: true, v1: 1 },
      { svc: true, std: true, v1: 2 },
      { svc: true, std: true, v1: 1 },
    ])
    assert.equal(verifySvcSignature(rx.requests[2].headers['svc-status-signature'] as string, rx.requests[2].body, ep.secret), false, 'the retired secret no longer signs')
    const r = rx.requests[0]
    const body = JSON.parse(r.body)
    assert.deepEqual(Object.keys(body), ['id', 'type', 'created_at', 'workspace_id', 'livemode', 'api_version', 'data'])
    assert.equal(body.type, 'webhook.test')
    assert.equal(body.livemode, false)
    assert.equal(body.workspace_id, h.a.workspaceId)
    assert.equal(r.headers['svc-event-id'], body.id)
    assert.equal(r.headers['webhook-id'], body.id)
    assert.equal(r.headers['svc-event-type'], 'webhook.test')
    assert.match(r.headers['svc-delivery-id'] as string, /^whd_/)
    assert.match(r.headers['user-agent'] as string, /^Svc-Webhooks\/2\.4\.0/)
    assert.equal(r.headers['content-type'], 'application/json')
  })

  it('retries a receiver that fails 3 times: attempts_count 4, last_error of the 3rd failure, next_retry_at while pending; replay keeps event_id', async () => {
    const rx = await receiver((_r, n) => (n <= 3 ? { status: 500, body: `failure ${n}` } : { status: 200, body: 'finally' }))
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    assert.equal(d.status, 'pending')
    assert.equal(d.attempts_count, 0)
    const pending = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.attempts_count >= 1 && x.status === 'pending' ? x : null
    })
    assert.ok(pending.next_retry_at, 'next_retry_at is set while a retry is due')
    assert.ok(Date.parse(pending.next_retry_at) > Date.parse(pending.last_attempt_at))
    assert.equal(pending.last_error, 'HTTP 500')
    const done = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.status !== 'pending' ? x : null
    }, 20_000)
    assert.equal(done.status, 'succeeded')
    assert.equal(done.attempts_count, 4)
    assert.equal(done.last_error, 'HTTP 500')
    assert.equal(done.next_retry_at, null)
    assert.equal(done.last_response_status, 200)
    assert.equal(done.last_response_body, 'finally')
    assert.deepEqual(
      done.attempts.map((a: any) => [a.attempt, a.status, a.response_status, a.response_body]),
      [
        [4, 'succeeded', 200, 'finally'],
        [3, 'failed', 500, 'failure 3'],
        [2, 'failed', 500, 'failure 2'],
        [1, 'failed', 500, 'failure 1'],
      ],
    )
    // The retries waited for the schedule (1 s ± 20 %).
    for (let i = 1; i < 4; i++) assert.ok(rx.requests[i].at - rx.requests[i - 1].at >= 700, `retry ${i} waited`)
    const eventIds = new Set(rx.requests.map((r) => JSON.parse(r.body).id))
    assert.equal(eventIds.size, 1)

    const replay = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/deliveries/${d.id}/replay`, key: h.a.test })
    assert.equal(replay.statusCode, 202, replay.body)
    const replayed = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.attempts_count === 5 ? x : null
    })
    assert.equal(rx.requests.length, 5)
    assert.equal(rx.requests[4].body, rx.requests[0].body, 'same body')
    assert.equal(JSON.parse(rx.requests[4].body).id, d.event_id, 'same event_id')
    assert.equal(replayed.attempts[0].trigger, 'replay')
    assert.equal(replayed.status, 'succeeded')
  })

  it('counts a 3xx as a failure (no redirect followed) and fails the delivery after the last scheduled attempt', async () => {
    const target = await receiver()
    const rx = await receiver(() => ({ status: 302, headers: { location: target.url } }))
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const done = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.status !== 'pending' ? x : null
    }, 20_000)
    assert.equal(done.status, 'failed')
    assert.equal(done.attempts_count, 4)
    assert.match(done.last_error, /HTTP 302: redirects are not followed/)
    assert.equal(target.requests.length, 0)
  })

  it('honours Retry-After on 429 and 503', async () => {
    const rx = await receiver((_r, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '3' } } : { status: 200 }))
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const pending = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.attempts_count === 1 ? x : null
    })
    const wait = Date.parse(pending.next_retry_at) - Date.parse(pending.last_attempt_at)
    assert.ok(wait >= 2900 && wait <= 3100, `retry after ~3 s, got ${wait} ms`)
    await waitFor(() => rx.requests.length === 2, 10_000)
    assert.ok(rx.requests[1].at - rx.requests[0].at >= 2500)
  })

  it('times out after WEBHOOK_TIMEOUT_MS', async () => {
    const rx = await receiver(() => ({ hang: true }))
    const ep = await createEndpoint(h, rx.url, { event_types: ['webhook.test'] })
    const d = await sendTest(h, ep.id)
    const x = await waitFor(async () => {
      const y = await getDelivery(h, d.id)
      return y.attempts_count >= 1 ? y : null
    })
    assert.match(x.last_error, /No response within 1500 ms/)
    assert.ok(x.last_duration_ms >= 1400)
    await h.request({ method: 'DELETE', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test })
  })

  it('disables an endpoint that answers 410 and emits webhook_endpoint.disabled to the other endpoints', async () => {
    const watcher = await receiver()
    const w = await createEndpoint(h, watcher.url, { event_types: ['webhook_endpoint.disabled'] })
    const gone = await receiver(() => ({ status: 410 }))
    const ep = await createEndpoint(h, gone.url)
    const d = await sendTest(h, ep.id)
    const done = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.status === 'failed' ? x : null
    })
    assert.equal(done.attempts_count, 1, '410 stops the retries')
    const e = json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test }))
    assert.equal(e.enabled, false)
    assert.equal(e.status, 'disabled')
    assert.match(e.disabled_reason, /410/)
    await waitFor(() => watcher.requests.length >= 1)
    const evt = JSON.parse(watcher.requests[0].body)
    assert.equal(evt.type, 'webhook_endpoint.disabled')
    assert.equal(evt.data.object.id, ep.id)
    const again = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/test`, key: h.a.test })
    assert.equal(again.statusCode, 409)
    assert.equal(json(again).code, 'webhook_endpoint_unavailable')
    await h.request({ method: 'DELETE', url: `/sandbox/v2/webhooks/endpoints/${w.id}`, key: h.a.test })
  })

  it('fans an event out to every subscribed enabled endpoint of the same workspace and mode, once', async () => {
    const all = await receiver()
    const onlyTest = await receiver()
    const disabled = await receiver()
    const other = await receiver()
    await createEndpoint(h, all.url)
    await createEndpoint(h, onlyTest.url, { event_types: ['webhook.test'] })
    await createEndpoint(h, disabled.url, { enabled: false })
    await createEndpoint(h, other.url, {}, h.b.test)
    // Emit a real catalog event through the kernel outbox (as any module would).
    const tenant = { workspaceId: h.a.workspaceId, mode: 'test' as const }
    const { kernel } = h.app
    const event = await kernel.transaction(null, (tx) => kernel.events.emit(tx, tenant, 'webhook_endpoint.disabled', WEBHOOK_EVENTS['webhook_endpoint.disabled'].example))
    await waitFor(() => all.requests.some((r) => JSON.parse(r.body).id === event.id))
    await new Promise((r) => setTimeout(r, 300))
    // Running the fan-out again for the same event creates nothing new (unique event and endpoint).
    await kernel.transaction(null, (tx) => h.app.services.webhooks.deliveries.fanOut(tx, event))
    await new Promise((r) => setTimeout(r, 300))
    assert.equal(all.requests.filter((r) => JSON.parse(r.body).id === event.id).length, 1)
    assert.equal(onlyTest.requests.length, 0)
    assert.equal(disabled.requests.length, 0)
    assert.equal(other.requests.length, 0)
  })
})

describe('webhook endpoints that keep failing', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1,1,1', WEBHOOK_DISABLE_AFTER_HOURS: '0' } })
    h.app.kernel.jobs.start()
    rx = await startReceiver(() => ({ status: 500 }))
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  it('disables an endpoint that keeps failing for WEBHOOK_DISABLE_AFTER_HOURS (0 here: the second failure)', async () => {
    const ep = await createEndpoint(h, rx.url, { event_types: ['webhook.test'] })
    await sendTest(h, ep.id)
    const e = await waitFor(async () => {
      const x = json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test }))
      return x.enabled === false ? x : null
    })
    assert.match(e.disabled_reason, /Every attempt failed for 0 hours/)
    // Re-enabling resets the failure run.
    const re = await h.request({ method: 'PATCH', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test, payload: { enabled: true } })
    assert.equal(json(re).enabled, true)
    assert.equal(json(re).failing_since, null)
    await h.request({ method: 'DELETE', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test })
  })
})

describe('webhook destinations when private networks are not allowed', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', WEBHOOK_RETRY_SCHEDULE: '1' } })
    h.app.kernel.jobs.start()
    rx = await startReceiver()
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  for (const url of [
    'http://127.0.0.1:9/x',
    'http://localhost/x',
    'http://169.254.169.254/latest/meta-data',
    'http://10.1.2.3/x',
    'http://192.168.0.10/x',
    'http://[::1]/x',
    'http://[fd00::1]/x',
    'http://0.0.0.0/x',
  ]) {
    it(`refuses ${url} with 422`, async () => {
      const r = await h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url } })
      assert.equal(r.statusCode, 422, r.body)
      assert.equal(json(r).code, 'webhook_url_forbidden')
      assert.equal(json(r).errors[0].pointer, '/body/url')
    })
  }

  it('always allows the service’s own Playground, and public addresses', async () => {
    const own = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: `${h.config.publicUrl}/v2/webhooks/playground/abcdefghijklmnopqrstuvwxyz` } })
    assert.equal(own.statusCode, 201, own.body)
    const pub = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://93.184.215.14/hooks' } })
    assert.equal(pub.statusCode, 201, pub.body)
  })

  it('re-checks the destination at delivery time (DNS rebinding): a private address is never contacted', async () => {
    const ep = await createEndpoint(h, 'http://93.184.215.14/hooks')
    // The name now points somewhere private: simulate by moving the stored URL.
    await h.app.kernel.db.updateTable('webhook_endpoints').set({ url: rx.url }).where('id', '=', ep.id).execute()
    const d = await sendTest(h, ep.id)
    const done = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.status === 'failed' ? x : null
    }, 10_000)
    assert.match(done.last_error, /loopback, private, link-local or metadata/)
    assert.equal(rx.requests.length, 0)
  })
})
