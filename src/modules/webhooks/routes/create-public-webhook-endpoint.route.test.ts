import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('createPublicWebhookEndpoint', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('creates an endpoint that the /webhooks/endpoints family manages too', async () => {
    const r = await h.request({ method: 'POST', url: '/v2/webhook-endpoints', payload: { url: 'https://example.com/p' } })
    assert.equal(r.statusCode, 201, r.body)
    assert.match(json(r).secret, /^whsec_/)
    const same = await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${json(r).id}` })
    assert.equal(same.statusCode, 200)
    assert.equal(json(same).url, 'https://example.com/p')
  })

  it('applies the same URL rules (422)', async () => {
    const r = await h.request({ method: 'POST', url: '/v2/webhook-endpoints', payload: { url: 'http://example.com/p' } })
    assert.equal(r.statusCode, 422)
  })

  it('needs webhooks:write', async () => {
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'POST', url: '/v2/webhook-endpoints', key: read, payload: { url: 'https://example.com' } })).statusCode, 403)
    assert.equal((await h.request({ method: 'POST', url: '/v2/webhook-endpoints', key: null, payload: { url: 'https://example.com' } })).statusCode, 401)
  })
})
