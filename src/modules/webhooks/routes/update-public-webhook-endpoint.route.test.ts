import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('updatePublicWebhookEndpoint', () => {
  let h: TestApp
  let id: string
  before(async () => {
    h = await createTestApp()
    id = json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/x' } })).id
  })
  after(() => h.close())

  it('changes url, description, event types and enabled', async () => {
    const r = await h.request({
      method: 'PATCH',
      url: `/v2/webhook-endpoints/${id}`,
      payload: { url: 'https://example.org/new', description: 'new', event_types: ['webhook.test', 'webhook_endpoint.disabled'], enabled: false },
    })
    assert.equal(r.statusCode, 200, r.body)
    const e = json(r)
    assert.deepEqual([e.url, e.description, e.event_types, e.enabled, e.status], ['https://example.org/new', 'new', ['webhook.test', 'webhook_endpoint.disabled'], false, 'disabled'])
    const again = json(await h.request({ method: 'PATCH', url: `/v2/webhook-endpoints/${id}`, payload: { enabled: true, description: null } }))
    assert.deepEqual([again.enabled, again.disabled_reason, again.description], [true, null, null])
  })

  it('validates like create (422) and needs at least one field', async () => {
    for (const payload of [{ url: 'http://example.com' }, { event_types: ['nope'] }, {}]) {
      const r = await h.request({ method: 'PATCH', url: `/v2/webhook-endpoints/${id}`, payload })
      assert.equal(r.statusCode, 422, JSON.stringify(payload))
    }
  })

  it('answers 404 for another workspace', async () => {
    const r = await h.request({ method: 'PATCH', url: `/v2/webhook-endpoints/${id}`, key: h.b.live, payload: { description: 'x' } })
    assert.equal(r.statusCode, 404)
  })

  it('needs webhooks:write', async () => {
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'PATCH', url: `/v2/webhook-endpoints/${id}`, key: read, payload: { description: 'x' } })).statusCode, 403)
  })
})
