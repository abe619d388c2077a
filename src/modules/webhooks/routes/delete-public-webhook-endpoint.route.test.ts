import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('deletePublicWebhookEndpoint', () => {
  let h: TestApp
  const create = async () => json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/x' } })).id as string
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('deletes the endpoint; it is then not found', async () => {
    const id = await create()
    const r = await h.request({ method: 'DELETE', url: `/v2/webhook-endpoints/${id}` })
    assert.equal(r.statusCode, 200)
    assert.deepEqual(json(r), { id, object: 'webhook_endpoint', deleted: true })
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${id}` })).statusCode, 404)
    assert.equal((await h.request({ method: 'DELETE', url: `/v2/webhook-endpoints/${id}` })).statusCode, 404)
  })

  it('answers 404 for another workspace and leaves the endpoint alone', async () => {
    const id = await create()
    assert.equal((await h.request({ method: 'DELETE', url: `/v2/webhook-endpoints/${id}`, key: h.b.live })).statusCode, 404)
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${id}` })).statusCode, 200)
  })

  it('needs webhooks:write', async () => {
    const id = await create()
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'DELETE', url: `/v2/webhook-endpoints/${id}`, key: read })).statusCode, 403)
  })
})
