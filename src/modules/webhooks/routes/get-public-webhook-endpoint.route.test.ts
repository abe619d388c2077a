import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getPublicWebhookEndpoint', () => {
  let h: TestApp
  let id: string
  before(async () => {
    h = await createTestApp()
    id = json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/x', metadata: { team: 'crm' } } })).id
  })
  after(() => h.close())

  it('returns the endpoint without its secret', async () => {
    const r = await h.request({ method: 'GET', url: `/v2/webhook-endpoints/${id}` })
    assert.equal(r.statusCode, 200)
    assert.equal(json(r).id, id)
    assert.deepEqual(json(r).metadata, { team: 'crm' })
    assert.equal(json(r).secret, undefined)
  })

  it('answers 404 for another workspace, the other mode and unknown ids', async () => {
    for (const [key, base] of [
      [h.b.live, '/v2'],
      [h.a.test, '/sandbox/v2'],
    ] as const) {
      const r = await h.request({ method: 'GET', url: `${base}/webhook-endpoints/${id}`, key })
      assert.equal(r.statusCode, 404)
      assert.equal(json(r).code, 'resource_not_found')
    }
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhook-endpoints/we_nope' })).statusCode, 404)
  })

  it('needs webhooks:read', async () => {
    const other = await h.key(['leads:read'])
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhook-endpoints/${id}`, key: other })).statusCode, 403)
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhook-endpoints/${id}`, key: null })).statusCode, 401)
  })
})
