import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { createEndpoint, getDelivery, sendTest, startReceiver, waitFor, type Receiver } from '../webhooks.testkit.js'

// The full story (fail 3×, succeed, replay) is in webhooks.delivery.test.ts.
describe('replayWebhookDelivery', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1', REPLAY_RATE_LIMIT_PER_MINUTE: '5' } })
    h.app.kernel.jobs.start()
    rx = await startReceiver()
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  const replay = (id: string, headers: Record<string, string> = {}, key = h.a.test) => h.request({ method: 'POST', url: `/sandbox/v2/webhooks/deliveries/${id}/replay`, key, headers })

  it('makes one new attempt with the same event_id and body, once per Idempotency-Key, with rate-limit headers', async () => {
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    await waitFor(async () => (await getDelivery(h, d.id)).status === 'succeeded')
    const first = await replay(d.id, { 'idempotency-key': 'replay-1' })
    assert.equal(first.statusCode, 202, first.body)
    assert.equal(json(first).event_id, d.event_id)
    assert.equal(first.headers['x-ratelimit-limit'], '5')
    assert.ok(first.headers['ratelimit'])
    assert.match(String(first.headers['ratelimit-policy']), /"replay";q=5;w=60/)
    const again = await replay(d.id, { 'idempotency-key': 'replay-1' })
    assert.equal(again.headers['idempotent-replayed'], 'true')
    const x = await waitFor(async () => {
      const y = await getDelivery(h, d.id)
      return y.attempts_count === 2 ? y : null
    })
    await new Promise((r) => setTimeout(r, 300))
    assert.equal((await getDelivery(h, d.id)).attempts_count, 2, 'the repeated key made no second replay')
    assert.equal(x.attempts[0].trigger, 'replay')
    const bodies = rx.requests.filter((r) => r.headers['svc-delivery-id'] === d.id).map((r) => r.body)
    assert.equal(bodies.length, 2)
    assert.equal(bodies[0], bodies[1])
  })

  it('answers 429 with Retry-After past REPLAY_RATE_LIMIT_PER_MINUTE', async () => {
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const key = await h.key(['webhooks:write'], { mode: 'test' })
    const codes: number[] = []
    let last
    for (let i = 0; i < 6; i++) {
      last = await replay(d.id, {}, key)
      codes.push(last.statusCode)
    }
    assert.deepEqual(codes, [202, 202, 202, 202, 202, 429])
    assert.equal(json(last!).code, 'rate_limited')
    assert.ok(last!.headers['retry-after'])
  })

  it('answers 409 when the endpoint is disabled or deleted, 404 for another workspace, 403 without webhooks:write', async () => {
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    assert.equal((await replay(d.id, {}, h.b.test)).statusCode, 404)
    const read = await h.key(['webhooks:read'], { mode: 'test' })
    assert.equal((await replay(d.id, {}, read)).statusCode, 403)
    await h.request({ method: 'PATCH', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test, payload: { enabled: false } })
    const disabled = await replay(d.id)
    assert.equal(disabled.statusCode, 409)
    assert.equal(json(disabled).code, 'webhook_endpoint_unavailable')
    await h.request({ method: 'DELETE', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test })
    assert.equal((await replay(d.id)).statusCode, 409)
  })
})
