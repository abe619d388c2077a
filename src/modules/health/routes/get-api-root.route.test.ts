import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getApiRoot', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('names the API version and links both base URLs, the OpenAPI document, the reference and health', async () => {
    const res = await h.request({ method: 'GET', url: '/v2/' })
    assert.equal(res.statusCode, 200)
    const root = json(res)
    assert.equal(root.api_version, '2.4.0')
    assert.match(root.links.live, /\/v2$/)
    assert.match(root.links.sandbox, /\/sandbox\/v2$/)
    for (const link of ['openapi', 'api_docs', 'health'] as const) {
      const path = new URL(root.links[link]).pathname
      const r = await h.request({ method: 'GET', url: path })
      assert.equal(r.statusCode, 200, `${link} → ${path}`)
    }
    const sandbox = json(await h.request({ method: 'GET', url: '/sandbox/v2', key: h.a.test }))
    assert.equal(sandbox.livemode, false)
    assert.match(sandbox.links.openapi, /\/sandbox\/v2\/openapi\.json$/)
  })
})
