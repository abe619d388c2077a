import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('createWebhookEndpoint', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('creates an endpoint and shows its whsec_ secret (≥ 24 random bytes) only in the response', async () => {
    const r = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/hooks', description: 'CRM', event_types: ['webhook.test'] } })
    assert.equal(r.statusCode, 201, r.body)
    const e = json(r)
    assert.match(e.id, /^we_/)
    assert.equal(e.object, 'webhook_endpoint')
    assert.deepEqual([e.url, e.description, e.event_types, e.enabled, e.status, e.livemode], ['https://example.com/hooks', 'CRM', ['webhook.test'], true, 'enabled', true])
    assert.match(e.secret, /^whsec_[A-Za-z0-9+/]+=*$/)
    assert.ok(Buffer.from(e.secret.slice(6), 'base64').length >= 24)
    const got = json(await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${e.id}` }))
    assert.equal(got.secret, undefined)
    assert.ok(!JSON.stringify(json(await h.request({ method: 'GET', url: '/v2/webhooks/endpoints' }))).includes(e.secret))
  })

  it('defaults event_types to ["*"]', async () => {
    const r = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/all' } })
    assert.deepEqual(json(r).event_types, ['*'])
  })

  it('requires https on the live URL and accepts http in the sandbox', async () => {
    const live = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'http://example.com/hooks' } })
    assert.equal(live.statusCode, 422)
    assert.equal(json(live).code, 'webhook_url_invalid')
    const sandbox = await h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: 'http://example.com/hooks' } })
    assert.equal(sandbox.statusCode, 201, sandbox.body)
    assert.equal(json(sandbox).livemode, false)
  })

  it('refuses unknown event types, non-URLs and other schemes with 422', async () => {
    for (const [payload, code] of [
      [{ url: 'https://example.com', event_types: ['no.such_type'] }, 'webhook_event_type_unknown'],
      [{ url: 'not a url' }, 'webhook_url_invalid'],
      [{ url: 'ftp://example.com/x' }, 'webhook_url_invalid'],
      [{ url: 'https://user:pw@example.com/x' }, 'webhook_url_invalid'],
      [{}, 'validation_failed'],
      [{ url: 'https://example.com', extra: 1 }, 'validation_failed'],
    ] as const) {
      const r = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload })
      assert.equal(r.statusCode, 422, JSON.stringify(payload))
      assert.equal(json(r).code, code)
    }
  })

  it('creates once per Idempotency-Key', async () => {
    const send = () => h.request({ method: 'POST', url: '/v2/webhooks/endpoints', headers: { 'idempotency-key': 'create-1' }, payload: { url: 'https://example.com/idem' } })
    const a = await send()
    const b = await send()
    assert.equal(a.statusCode, 201)
    assert.equal(b.headers['idempotent-replayed'], 'true')
    assert.equal(json(a).id, json(b).id)
  })

  it('needs a key with webhooks:write', async () => {
    assert.equal((await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', key: null, payload: { url: 'https://example.com' } })).statusCode, 401)
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', key: read, payload: { url: 'https://example.com' } })).statusCode, 403)
  })
})
