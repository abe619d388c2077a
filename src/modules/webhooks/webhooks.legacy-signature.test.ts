import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, ok, type TestApp } from '../../../test/helpers.js'
import { createEndpoint, sendTest, startReceiver, verifySvcSignature, waitFor, type Receiver } from './webhooks.testkit.js'

// The documented algorithm (docs/migration-v1.md), written independently of webhooks.signing.ts.
const legacy = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`

describe('legacy X-Svc-Signature (opt-in, deprecated)', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp()
    h.app.kernel.jobs.start()
    rx = await startReceiver()
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  it('is off by default, sent beside Svc-Status-Signature once enabled, and verifiable by the documented algorithm', async () => {
    const ep = await createEndpoint(h, rx.url)
    const shown = await ok(h.request({ method: 'GET', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, key: h.a.test }))
    assert.equal(shown.legacy_signature, false)
    await sendTest(h, ep.id)
    const plain = await waitFor(() => rx.requests[0], 15_000, 'first delivery')
    assert.equal(plain.headers['x-svc-signature'], undefined)

    const updated = json(await h.request({ method: 'PATCH', url: `/sandbox/v2/webhooks/endpoints/${ep.id}`, payload: { legacy_signature: true }, key: h.a.test }))
    assert.equal(updated.legacy_signature, true)
    await sendTest(h, ep.id)
    const signed = await waitFor(() => rx.requests[1], 15_000, 'second delivery')
    assert.equal(signed.headers['x-svc-signature'], legacy(ep.secret, signed.body))
    assert.ok(verifySvcSignature(signed.headers['svc-status-signature'] as string, signed.body, ep.secret))

    const created = await createEndpoint(h, rx.url, { legacy_signature: true })
    const got = await ok(h.request({ method: 'GET', url: `/sandbox/v2/webhooks/endpoints/${created.id}`, key: h.a.test }))
    assert.equal(got.legacy_signature, true)
  })
})
