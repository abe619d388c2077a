import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { createEndpoint, sendTest, startReceiver, waitFor, type Receiver } from '../webhooks.testkit.js'

describe('getWebhookDelivery', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1' } })
    h.app.kernel.jobs.start()
    rx = await startReceiver((_r, n) => (n === 1 ? { status: 500, body: 'x'.repeat(5000) } : { status: 200, body: '{"ok":true}' }))
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  it('returns the delivery with every attempt, newest first, and a bounded response excerpt', async () => {
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    const x = await waitFor(async () => {
      const r = json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries/${d.id}`, key: h.a.test }))
      return r.status === 'succeeded' ? r : null
    })
    assert.equal(x.attempts.length, 2)
    const [second, first] = x.attempts
    assert.deepEqual([first.attempt, first.status, first.response_status, first.error, first.trigger], [1, 'failed', 500, 'HTTP 500', 'scheduled'])
    assert.equal(first.response_body.length, 2048)
    assert.equal(first.url, rx.url)
    assert.ok(Number.isInteger(first.duration_ms))
    assert.deepEqual([second.attempt, second.status, second.response_body], [2, 'succeeded', '{"ok":true}'])
  })

  it('answers 404 for another workspace or mode; needs webhooks:read', async () => {
    const ep = await createEndpoint(h, rx.url)
    const d = await sendTest(h, ep.id)
    assert.equal((await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries/${d.id}`, key: h.b.test })).statusCode, 404)
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhooks/deliveries/${d.id}` })).statusCode, 404)
    const other = await h.key(['leads:read'], { mode: 'test' })
    assert.equal((await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries/${d.id}`, key: other })).statusCode, 403)
  })
})
