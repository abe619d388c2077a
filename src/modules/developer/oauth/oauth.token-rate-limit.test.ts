import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, type TestApp } from '../../../../test/helpers.js'

describe('POST /oauth/token over the rate limit', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } })))
  after(() => h.close())

  it('answers 429 problem+json with Retry-After, not a 500 server_error', async () => {
    // A fresh address per run: with Redis the buckets outlive this process.
    const remoteAddress = `2001:db8:${randomBytes(2).toString('hex')}::1`
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'svc_oci_unknown', client_secret: 'x' }).toString()
    const statuses: number[] = []
    let last
    for (let i = 0; i < 5; i++) {
      last = await h.http().inject({ method: 'POST', url: '/oauth/token', remoteAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form })
      statuses.push(last.statusCode)
    }
    assert.deepEqual(statuses, [401, 401, 401, 429, 429])
    assertProblem(last!, 429, 'rate_limited')
    assert.ok(Number(last!.headers['retry-after']) >= 1, 'Retry-After')
  })
})
