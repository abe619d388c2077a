import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../app.js'
import { createTestApp, ENGINE, type TestApp } from '../../../test/helpers.js'
import { createEndpoint, sendTest, startReceiver, verifySvcSignature, waitFor, type Receiver } from './webhooks.testkit.js'

// Signing secrets are sealed at rest (AES-256-GCM under the server secret) and still sign; a server
// secret rotation keeps them working through SERVER_SECRET_PREVIOUS until `reseal` moves them over.
describe(`webhook signing secrets at rest (${ENGINE})`, () => {
  let h: TestApp
  let receiver: Receiver
  before(async () => {
    h = await createTestApp()
    h.app.kernel.jobs.start()
    receiver = await startReceiver()
  })
  after(async () => {
    await receiver.close()
    await h.close()
  })

  const stored = async (id: string) => (await h.app.kernel.db.selectFrom('webhook_endpoints').select('secrets').where('id', '=', id).executeTakeFirstOrThrow()).secrets

  it('the database never holds a signing secret in the clear, after create and after rotation', async () => {
    const e = await createEndpoint(h, receiver.url)
    assert.ok(!(await stored(e.id)).includes(e.secret))
    assert.match(JSON.parse(await stored(e.id))[0].secret, /^enc:v1:/)
    const rotated = await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/endpoints/${e.id}/rotate-secret`, key: h.a.test, payload: {} })
    const fresh = JSON.parse(rotated.body).secret as string
    const column = await stored(e.id)
    assert.ok(!column.includes(fresh) && !column.includes(e.secret))
    // …and deliveries are signed with both during the grace period.
    await sendTest(h, e.id)
    const req = await waitFor(() => receiver.requests.find((r) => JSON.parse(r.body).data.object.endpoint_id === e.id))
    assert.ok(verifySvcSignature(req.headers['svc-status-signature'] as string, req.body, fresh))
    assert.ok(verifySvcSignature(req.headers['svc-status-signature'] as string, req.body, e.secret))
  })

  it('a rotated server secret: the previous one still opens, reseal moves every row, then it is not needed', async () => {
    const e = await createEndpoint(h, receiver.url)
    const before = await stored(e.id)
    const next = randomBytes(32).toString('base64url')
    const rotatedConfig = { ...h.config, serverSecret: next, serverSecretPrevious: [h.config.serverSecret!] }
    const second = await buildApp({ config: rotatedConfig, database: h.app.kernel.database })
    try {
      const resealed = await second.services.webhooks.endpoints.reseal()
      assert.ok(resealed >= 1)
      const after = await stored(e.id)
      assert.notEqual(after, before)
      assert.equal(second.kernel.secrets.isStale(JSON.parse(after)[0].secret), false)
      assert.equal(await second.services.webhooks.endpoints.reseal(), 0, 'nothing left to reseal')
      // With only the new secret, the endpoint still signs with the secret its owner holds.
      const only = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, database: h.app.kernel.database })
      const opened = (await import('./webhooks.secrets.js')).openSecrets(only.kernel.secrets, e.id, after)
      assert.equal(opened[0].secret, e.secret)
      await only.http.close()
      await only.redis?.quit()
    } finally {
      await second.http.close()
      await second.redis?.quit()
    }
  })
})
