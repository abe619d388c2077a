import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('updateWorkspace', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('updates name, time zone, language and metadata', async () => {
    const res = await h.request({
      method: 'PATCH',
      url: `/v2/workspaces/${h.a.workspaceId}`,
      payload: { name: 'Acme GmbH', timezone: 'Europe/Berlin', default_language: 'de-DE', metadata: { plan: 'pro' } },
    })
    assert.equal(res.statusCode, 200, res.body)
    const ws = json(res)
    assert.deepEqual([ws.name, ws.timezone, ws.default_language, ws.metadata], ['Acme GmbH', 'Europe/Berlin', 'de-DE', { plan: 'pro' }])
    assert.ok(ws.updated_at >= ws.created_at)
    assert.equal(json(await h.request({ method: 'GET', url: '/v2/workspaces/current' })).name, 'Acme GmbH')
  })

  it('rejects an unknown time zone, an empty patch and unknown fields with 422', async () => {
    for (const payload of [{ timezone: 'Mars/Olympus' }, {}, { owner: 'x' }, { name: '' }, { default_language: 'english!' }]) {
      const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, payload })
      assert.equal(res.statusCode, 422, JSON.stringify(payload))
    }
  })

  it('needs the write scope', async () => {
    const res = await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, key: await h.key(['read']), payload: { name: 'x' } })
    assert.equal(res.statusCode, 403)
  })
})

describe('updateWorkspace: CRM and carrier URLs are held to the outbound address policy when saved', () => {
  let h: TestApp
  // Private networks not allowed (the production default): the forms an attacker would use to reach inside.
  before(async () => (h = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'false' } })))
  after(() => h.close())
  const inside = [
    'http://127.0.0.1:8080/crm',
    'http://localhost/crm',
    'http://[::1]/crm',
    'http://10.0.0.5/crm',
    'http://192.168.1.10/crm',
    'http://172.16.0.1/crm',
    'http://169.254.169.254/latest/meta-data/',
    'http://0.0.0.0/crm',
    'http://[::ffff:127.0.0.1]/crm',
    'http://2130706433/crm',
    'http://0x7f000001/crm',
    'http://127.1/crm',
  ]
  const patchWs = (payload: unknown) => h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}`, payload: payload as object })

  it('a webhook CRM url or a HubSpot base_url on loopback, private or metadata addresses is 422 with a pointer; nothing is saved', async () => {
    for (const url of inside) {
      const hook = await patchWs({ crm: { provider: 'webhook', url, signing_secret: 'whsec_test_1234567890' } })
      assert.equal(hook.statusCode, 422, `${url}: ${hook.body}`)
      assert.equal(json(hook).code, 'validation_failed')
      assert.equal(json(hook).errors[0].pointer, '/body/crm/url')
      const hub = await patchWs({ crm: { provider: 'hubspot', base_url: url, access_token: 'pat-na1-secret' } })
      assert.equal(hub.statusCode, 422, `${url}: ${hub.body}`)
      assert.equal(json(hub).errors[0].pointer, '/body/crm/base_url')
    }
    const carrier = await patchWs({ voice: { provider: 'twilio', account_sid: `AC${'0'.repeat(32)}`, auth_token: 'f'.repeat(32), base_url: 'http://127.0.0.1:9/' } })
    assert.equal(carrier.statusCode, 422, carrier.body)
    assert.equal(json(carrier).errors[0].pointer, '/body/voice/base_url')
    const ws = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}` }))
    assert.equal(ws.crm, null, 'nothing was saved')
  })

  it('a public CRM address is saved', async () => {
    const ok = await patchWs({ crm: { provider: 'webhook', url: 'https://93.184.215.14/hooks/crm', signing_secret: 'whsec_test_1234567890' } })
    assert.equal(ok.statusCode, 200, ok.body)
    assert.equal(json(ok).crm.url, 'https://93.184.215.14/hooks/crm')
  })
})
