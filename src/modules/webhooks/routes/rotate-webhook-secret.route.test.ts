import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

// Delivery-side behaviour (two v1 values verified by a receiver) is in webhooks.delivery.test.ts.
describe('rotateWebhookSecret', () => {
  let h: TestApp
  let id: string
  let secret: string
  before(async () => {
    h = await createTestApp()
    const e = json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/x' } }))
    id = e.id
    secret = e.secret
  })
  after(() => h.close())

  it('returns a new secret once, with the previous one signing for 24 h by default', async () => {
    const r = await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${id}/rotate-secret` })
    assert.equal(r.statusCode, 200, r.body)
    const e = json(r)
    assert.match(e.secret, /^whsec_/)
    assert.notEqual(e.secret, secret)
    const grace = Date.parse(e.previous_secret_expires_at) - Date.now()
    assert.ok(grace > 23.9 * 3600_000 && grace <= 24 * 3600_000, `grace ${grace}`)
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${id}` })).secret, undefined)
  })

  it('accepts a shorter grace period, 0 = now, and refuses a negative one', async () => {
    const r = await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${id}/rotate-secret`, payload: { grace_period_seconds: 0 } })
    assert.equal(json(r).previous_secret_expires_at, null)
    const bad = await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${id}/rotate-secret`, payload: { grace_period_seconds: -1 } })
    assert.equal(bad.statusCode, 422)
  })

  it('answers 404 for another workspace; needs webhooks:write', async () => {
    assert.equal((await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${id}/rotate-secret`, key: h.b.live })).statusCode, 404)
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'POST', url: `/v2/webhooks/endpoints/${id}/rotate-secret`, key: read })).statusCode, 403)
  })
})
