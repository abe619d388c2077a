import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('listWebhookEvents', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('returns the same catalog as GET /events, on both base URLs', async () => {
    const a = json(await h.request({ method: 'GET', url: '/v2/webhooks/events?limit=100' }))
    const b = json(await h.request({ method: 'GET', url: '/v2/events?limit=100' }))
    assert.deepEqual(a, b)
    const sandbox = await h.request({ method: 'GET', url: '/sandbox/v2/webhooks/events?limit=100', key: h.a.test })
    assert.deepEqual(json(sandbox).data, a.data)
    assert.ok(a.data.every((t: any) => t.object === 'event_type' && t.module && t.description && t.schema && t.example))
  })

  it('validates limit (422) and needs webhooks:read', async () => {
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/events?limit=0' })).statusCode, 422)
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/events', key: read })).statusCode, 200)
    const other = await h.key(['leads:write'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/events', key: other })).statusCode, 403)
  })
})
