import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { createEndpoint, sendTest, startReceiver, waitFor, type Receiver } from '../webhooks.testkit.js'

describe('listWebhookDeliveries', () => {
  let h: TestApp
  let ok: Receiver
  let failing: Receiver
  let e1: string
  let e2: string
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '0' } })
    ok = await startReceiver()
    failing = await startReceiver(() => ({ status: 500 }))
    e1 = (await createEndpoint(h, ok.url)).id
    e2 = (await createEndpoint(h, failing.url, {}, h.a.test)).id
    await sendTest(h, e1)
    await sendTest(h, e1)
    await sendTest(h, e2)
    h.app.kernel.jobs.start()
    await waitFor(() => ok.requests.length === 2 && failing.requests.length >= 1)
  })
  after(async () => {
    await h.close()
    await Promise.all([ok.close(), failing.close()])
  })

  const list = async (q: string, key?: string) => json(await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries${q}`, key: key ?? h.a.test }))

  it('lists deliveries newest first with next_retry_at, last_error and attempts_count', async () => {
    const l = await list('')
    assert.equal(l.data.length, 3)
    assert.equal(l.data[0].endpoint_id, e2)
    for (const d of l.data) for (const f of ['next_retry_at', 'last_error', 'attempts_count']) assert.ok(f in d, f)
  })

  it('filters by endpoint, status and event type, and pages with a cursor bound to the filters', async () => {
    assert.equal((await list(`?endpoint_id=${e1}`)).data.length, 2)
    const failed = await waitFor(async () => {
      const l = await list('?status=failed')
      return l.data.length === 1 ? l : null
    })
    assert.equal(failed.data[0].endpoint_id, e2)
    assert.equal(failed.data[0].last_error, 'HTTP 500')
    assert.equal((await list('?status=succeeded')).data.length, 2)
    assert.equal((await list('?event_type=webhook.test')).data.length, 3)
    assert.equal((await list('?event_type=webhook_endpoint.disabled')).data.length, 0)
    const p1 = await list(`?endpoint_id=${e1}&limit=1`)
    assert.equal(p1.has_more, true)
    const p2 = await list(`?endpoint_id=${e1}&limit=1&cursor=${p1.next_cursor}`)
    assert.equal(p2.data.length, 1)
    assert.notEqual(p2.data[0].id, p1.data[0].id)
    const wrong = await h.request({ method: 'GET', url: `/sandbox/v2/webhooks/deliveries?cursor=${p1.next_cursor}`, key: h.a.test })
    assert.equal(wrong.statusCode, 422)
    assert.equal((await h.request({ method: 'GET', url: '/sandbox/v2/webhooks/deliveries?status=bogus', key: h.a.test })).statusCode, 422)
  })

  it('shows nothing of another workspace; needs webhooks:read', async () => {
    assert.equal((await list('', h.b.test)).data.length, 0)
    const other = await h.key(['bots:read'], { mode: 'test' })
    assert.equal((await h.request({ method: 'GET', url: '/sandbox/v2/webhooks/deliveries', key: other })).statusCode, 403)
  })
})
