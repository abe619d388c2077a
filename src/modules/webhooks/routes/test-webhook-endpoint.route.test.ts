import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { createEndpoint, startReceiver, waitFor, type Receiver } from '../webhooks.testkit.js'

describe('testWebhookEndpoint', () => {
  let h: TestApp
  let target: Receiver
  let bystander: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1' } })
    h.app.kernel.jobs.start()
    target = await startReceiver()
    bystander = await startReceiver()
  })
  after(async () => {
    await h.close()
    await Promise.all([target.close(), bystander.close()])
  })

  it('sends a webhook.test event to that endpoint only and returns the delivery', async () => {
    const ep = await createEndpoint(h, target.url)
    await createEndpoint(h, bystander.url) // subscribed to "*", must not get it
    const r = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/test`, key: h.a.test })
    assert.equal(r.statusCode, 201, r.body)
    const d = json(r)
    assert.match(d.id, /^whd_/)
    assert.match(d.event_id, /^evt_/)
    assert.deepEqual([d.object, d.event_type, d.endpoint_id, d.status, d.attempts_count], ['webhook_delivery', 'webhook.test', ep.id, 'pending', 0])
    await waitFor(() => target.requests.length === 1)
    const body = JSON.parse(target.requests[0].body)
    assert.equal(body.id, d.event_id)
    assert.deepEqual(body.data.object, { object: 'webhook_test', endpoint_id: ep.id, message: 'This is a test event from the webhooks module.' })
    await new Promise((res) => setTimeout(res, 300))
    assert.equal(bystander.requests.length, 0)
  })

  it('answers 409 for a disabled endpoint and 404 for another workspace', async () => {
    const ep = await createEndpoint(h, target.url, { enabled: false })
    const r = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/test`, key: h.a.test })
    assert.equal(r.statusCode, 409)
    assert.equal(json(r).code, 'webhook_endpoint_unavailable')
    const other = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/test`, key: h.b.test })
    assert.equal(other.statusCode, 404)
  })

  it('needs webhooks:write', async () => {
    const ep = await createEndpoint(h, target.url)
    const read = await h.key(['webhooks:read'], { mode: 'test' })
    assert.equal((await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/test`, key: read })).statusCode, 403)
  })
})
