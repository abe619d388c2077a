import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from './helpers.js'

describe('smoke', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  it('serves the root and the current workspace', async () => {
    const r = await h.request({ method: 'GET', url: '/v2/' })
    assert.equal(r.statusCode, 200, r.body)
    const w = await h.request({ method: 'GET', url: '/v2/workspaces/current' })
    assert.equal(w.statusCode, 200, w.body)
    assert.equal(json(w).id, h.a.workspaceId)
    const o = await h.request({ method: 'GET', url: '/v2/openapi.json', key: null })
    assert.equal(o.statusCode, 200)
    console.log(JSON.stringify(json(o).paths['/workspaces/{id}/members'], null, 1).slice(0, 3000))
    console.log(r.headers)
  })
})
