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
