import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { randomToken } from '../webhooks.testkit.js'

describe('captureWebhookPlaygroundDelete', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  for (const base of ['/v2', '/sandbox/v2']) {
    it(`captures a DELETE on ${base} without a key and answers 200`, async () => {
      const token = randomToken()
      const r = await h.request({ method: 'DELETE', url: `${base}/webhooks/playground/${token}`, key: null, headers: { 'content-type': 'text/csv' }, payload: 'a,b\n1,2' })
      assert.equal(r.statusCode, 200, r.body)
      assert.equal(json(r).object, 'webhook_playground_receipt')
      const list = json(await h.request({ method: 'GET', url: `${base}/webhooks/playground/${token}`, key: null }))
      const c = list.data.find((x: any) => x.id === json(r).capture_id)
      assert.equal(c.method, 'DELETE')
      assert.equal(c.body, 'a,b\n1,2')
      assert.equal(c.content_type, 'text/csv')
    })
  }

  it('answers 404 for a malformed token', async () => {
    const r = await h.request({ method: 'DELETE', url: '/v2/webhooks/playground/not-long-enough', key: null })
    assert.equal(r.statusCode, 404)
    assert.equal(json(r).code, 'playground_token_invalid')
  })

  it('records a DELETE once per Idempotency-Key', async () => {
    const token = randomToken()
    const send = () => h.request({ method: 'DELETE', url: `/v2/webhooks/playground/${token}`, key: null, headers: { 'idempotency-key': 'del-1' } })
    const a = await send()
    const b = await send()
    assert.equal(a.statusCode, 200)
    assert.equal(json(a).capture_id, json(b).capture_id)
    assert.equal(b.headers['idempotent-replayed'], 'true')
    const list = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null }))
    assert.equal(list.data.filter((c: any) => c.method === 'DELETE').length, 1)
  })
})
