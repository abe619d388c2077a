import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { createEndpoint, freePort, randomToken, sendTest, waitFor } from '../webhooks.testkit.js'

const sign = (secret: string, t: number, body: string) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`

describe('captureWebhookPlaygroundPost', () => {
  let h: TestApp
  before(async () => {
    const port = await freePort()
    h = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, WEBHOOK_RETRY_SCHEDULE: '1' } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    h.app.kernel.jobs.start()
  })
  after(() => h.close())

  it('captures without a key and answers 200 with the capture id and inbox URL; credentials are not stored', async () => {
    const token = randomToken()
    const r = await h.request({
      method: 'POST',
      url: `/v2/webhooks/playground/${token}?a=1`,
      key: null,
      headers: { 'content-type': 'application/json', cookie: 'session=secret', 'x-api-key': 'k', 'x-custom': 'kept' },
      payload: '{"hello":"world"}',
    })
    assert.equal(r.statusCode, 200, r.body)
    const receipt = json(r)
    assert.match(receipt.capture_id, /^whc_/)
    assert.equal(receipt.inbox_url, `${h.config.publicUrl}/v2/webhooks/playground/${token}`)
    assert.equal(receipt.signature, null)
    const c = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null })).data[1]
    assert.equal(c.id, receipt.capture_id)
    assert.equal(c.body, '{"hello":"world"}')
    assert.equal(c.body_encoding, 'utf8')
    assert.equal(c.headers['x-custom'], 'kept')
    for (const h of ['cookie', 'x-api-key', 'authorization']) assert.equal(c.headers[h], undefined, h)
  })

  it('records requests carrying any Authorization header (a receiver token, even an svc_ key), stripped', async () => {
    const token = randomToken()
    for (const authorization of ['Bearer receiver-own-token', 'Basic dXNlcjpwYXNz', `Bearer ${h.a.live}`, 'Bearer svc_live_' + 'x'.repeat(43)]) {
      const r = await h.request({ method: 'POST', url: `/v2/webhooks/playground/${token}`, key: null, headers: { authorization, 'content-type': 'application/json' }, payload: '{}' })
      assert.equal(r.statusCode, 200, `${authorization}: ${r.body}`)
    }
    const list = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null, headers: { authorization: 'Bearer whatever' } }))
    assert.equal(list.data.filter((c: { method: string }) => c.method === 'POST').length, 4)
    for (const c of list.data) assert.equal(c.headers.authorization, undefined)
  })

  it('stores binary bodies as base64 and reports size', async () => {
    const token = randomToken()
    const bytes = Buffer.from([0, 1, 2, 255, 254, 0])
    await h.request({ method: 'POST', url: `/v2/webhooks/playground/${token}`, key: null, headers: { 'content-type': 'application/octet-stream' }, payload: bytes })
    const c = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null })).data[1]
    assert.equal(c.body_encoding, 'base64')
    assert.deepEqual(Buffer.from(c.body, 'base64'), bytes)
    assert.equal(c.body_size, 6)
    assert.equal(c.body_truncated, false)
  })

  it('diagnoses the signature of our own deliveries: valid, wrong secret, body changed, old timestamp, rotated secret, malformed', async () => {
    const token = randomToken()
    const inbox = `${h.config.publicUrl}/sandbox/v2/webhooks/playground/${token}`
    const ep = await createEndpoint(h, inbox)
    const d = await sendTest(h, ep.id)
    const list = () => h.request({ method: 'GET', url: `/sandbox/v2/webhooks/playground/${token}`, key: null }).then(json)
    const delivered = await waitFor(async () => (await list()).data.find((c: any) => c.method === 'POST'))
    assert.equal(delivered.signature.result, 'valid')
    assert.equal(delivered.signature.valid, true)
    assert.equal(delivered.signature.delivery_id, d.id)
    await waitFor(async () => (await h.app.services.webhooks.deliveries.get({ workspaceId: h.a.workspaceId, mode: 'test' }, d.id)).status === 'succeeded')

    const body = delivered.body as string
    const now = Math.floor(Date.now() / 1000)
    const forward = async (signature: string, payload = body) => {
      const r = await h.request({
        method: 'POST',
        url: `/sandbox/v2/webhooks/playground/${token}`,
        key: null,
        headers: { 'content-type': 'application/json', 'svc-delivery-id': d.id, 'svc-status-signature': signature },
        payload,
      })
      return json(r).signature
    }
    const wrong = await forward(sign('whsec_deliberately_wrong_secret', now, body))
    assert.equal(wrong.result, 'signature_mismatch')
    assert.equal(wrong.valid, false)
    assert.equal((await forward(sign(ep.secret, now, body), body.replace('"data":{', '"data": {'))).result, 'body_changed')
    const stale = await forward(sign(ep.secret, now - 3600, body))
    assert.equal(stale.result, 'timestamp_outside_tolerance')
    assert.ok(stale.timestamp_age_seconds >= 3599)
    assert.equal((await forward('v1=abc')).result, 'header_malformed')
    await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${ep.id}/rotate-secret`, key: h.a.test, payload: { grace_period_seconds: 0 } })
    assert.equal((await forward(sign(ep.secret, now, body))).result, 'secret_rotated')
    // Not one of our deliveries to this inbox: no diagnostics.
    const foreign = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/playground/${randomToken()}`, key: null, headers: { 'svc-delivery-id': d.id } })
    assert.equal(json(foreign).signature, null)
  })

  it('answers 404 for a malformed token', async () => {
    assert.equal((await h.request({ method: 'POST', url: '/v2/webhooks/playground/abc', key: null, payload: {} })).statusCode, 404)
  })
})
