import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getWorkspace', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('returns the own workspace by id', async () => {
    const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}` })
    assert.equal(res.statusCode, 200)
    assert.equal(json(res).name, 'Acme')
  })

  it('answers 404 for another workspace and for an unknown id', async () => {
    for (const id of [h.b.workspaceId, 'ws_doesnotexist']) {
      const res = await h.request({ method: 'GET', url: `/v2/workspaces/${id}` })
      assert.equal(res.statusCode, 404)
      assert.equal(json(res).code, 'resource_not_found')
    }
  })
})
