import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'
import { createEndpoint, getDelivery, sendTest, startReceiver, waitFor, type Receiver } from './webhooks.testkit.js'

// Both path families, create and update: every way a URL gets stored.
const FAMILIES = ['/v2/webhooks/endpoints', '/v2/webhook-endpoints']
const PUBLIC_URL = 'https://93.184.215.14/hooks'

async function expectForbidden(h: TestApp, method: 'POST' | 'PATCH', url: string, destination: string): Promise<void> {
  const r = await h.request({ method, url, payload: { url: destination } })
  assert.equal(r.statusCode, 422, r.body)
  const body = json(r)
  assert.equal(body.code, 'webhook_url_forbidden')
  assert.equal(body.errors[0].pointer, '/body/url')
}

async function createPublic(h: TestApp, family: string): Promise<string> {
  const r = await h.request({ method: 'POST', url: family, payload: { url: PUBLIC_URL } })
  assert.equal(r.statusCode, 201, r.body)
  return json(r).id
}

describe('webhook destinations: IPv4 carried in IPv6, private networks not allowed', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } })
  })
  after(() => h.close())

  const destinations = ['https://[::169.254.169.254]/', 'https://[::127.0.0.1]/', 'https://[::ffff:127.0.0.1]/', 'https://[64:ff9b::a9fe:a9fe]/']
  for (const family of FAMILIES) {
    for (const destination of destinations) {
      it(`POST ${family} refuses ${destination}`, () => expectForbidden(h, 'POST', family, destination))
      it(`PATCH ${family}/{id} refuses ${destination}`, async () => {
        const id = await createPublic(h, family)
        await expectForbidden(h, 'PATCH', `${family}/${id}`, destination)
        const kept = await h.request({ method: 'GET', url: `${family}/${id}` })
        assert.equal(json(kept).url, PUBLIC_URL, 'the stored url is unchanged')
      })
    }
  }

  it('names the embedded address in the problem detail', async () => {
    const r = await h.request({ method: 'POST', url: FAMILIES[0], payload: { url: 'https://[::127.0.0.1]/' } })
    assert.match(json(r).detail, /::7f00:1 is a private address \(IPv4-compatible form of 127\.0\.0\.1, loopback\)/)
  })
})

describe('webhook destinations: metadata refused even with private networks allowed', () => {
  let h: TestApp
  let rx: Receiver
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_RETRY_SCHEDULE: '1' } }) // WEBHOOK_ALLOW_PRIVATE_NETWORKS=true in tests
    h.app.kernel.jobs.start()
    rx = await startReceiver()
  })
  after(async () => {
    await h.close()
    await rx.close()
  })

  for (const family of FAMILIES) {
    for (const destination of ['https://169.254.169.254/', 'https://[::169.254.169.254]/', 'https://[fd00:ec2::254]/', 'https://[fe80::1]/']) {
      it(`POST and PATCH ${family} refuse ${destination}`, async () => {
        await expectForbidden(h, 'POST', family, destination)
        const id = await createPublic(h, family)
        await expectForbidden(h, 'PATCH', `${family}/${id}`, destination)
      })
    }
  }

  it('still accepts private destinations and names that do not resolve yet', async () => {
    for (const url of ['https://10.1.2.3/x', 'https://[::ffff:127.0.0.1]/x', 'https://receiver.invalid/x']) {
      const r = await h.request({ method: 'POST', url: FAMILIES[0], payload: { url } })
      assert.equal(r.statusCode, 201, r.body)
    }
  })

  for (const stored of ['http://169.254.169.254/latest/meta-data', 'http://[::a9fe:a9fe]/latest/meta-data']) {
    it(`records a failed attempt for a stored url the API would refuse now (${stored})`, async () => {
      const ep = await createEndpoint(h, rx.url)
      // Stored before this policy, or written behind the API's back.
      await h.app.kernel.db.updateTable('webhook_endpoints').set({ url: stored }).where('id', '=', ep.id).execute()
      const d = await sendTest(h, ep.id)
      const done = await waitFor(async () => {
        const x = await getDelivery(h, d.id)
        return x.status === 'failed' ? x : null
      }, 10_000)
      assert.ok(done.attempts.length >= 1)
      for (const a of done.attempts) {
        assert.equal(a.status, 'failed')
        assert.equal(a.response_status, null)
        assert.match(a.error, /169\.254\.169\.254, cloud metadata\)|169\.254\.169\.254 is a forbidden address \(cloud metadata\)/)
        assert.match(a.error, /never an allowed destination/)
      }
      assert.match(done.last_error, /forbidden address/)
      assert.equal(rx.requests.length, 0)
    })
  }

  it('delivers to a name on loopback through the connect-time lookup', async () => {
    const seen = rx.requests.length
    const ep = await createEndpoint(h, rx.url.replace('127.0.0.1', 'localhost'))
    const d = await sendTest(h, ep.id)
    const done = await waitFor(async () => {
      const x = await getDelivery(h, d.id)
      return x.status !== 'pending' ? x : null
    }, 10_000)
    assert.equal(done.status, 'succeeded', done.last_error)
    assert.equal(rx.requests.length, seen + 1)
  })
})
