import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('getWorkspaceUsage', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('counts API requests per day and module from the request log', async () => {
    const key = await h.key(['read', 'write'])
    for (let i = 0; i < 3; i++) await h.request({ method: 'GET', url: '/v2/workspaces/current', key })
    await h.request({ method: 'GET', url: '/v2/health', key })
    await h.request({ method: 'GET', url: '/v2/workspaces/ws_missing', key }) // a 404 counts as an error
    const today = new Date().toISOString().slice(0, 10)
    const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?from=${today}&to=${today}`, key })
    assert.equal(res.statusCode, 200, res.body)
    const u = json(res)
    assert.equal(u.object, 'workspace_usage')
    assert.equal(u.days.length, 1)
    assert.ok(u.totals.api_requests >= 5, JSON.stringify(u))
    assert.ok(u.totals.api_errors >= 1)
    assert.ok(u.by_module.workspaces >= 4)
    assert.ok(u.by_module.health >= 1)
    // Sandbox traffic is reported separately.
    const sb = json(await h.request({ method: 'GET', url: `/sandbox/v2/workspaces/${h.a.workspaceId}/usage`, key: h.a.test }))
    assert.equal(sb.livemode, false)
    assert.equal(sb.days.length, 30)
    assert.ok((sb.by_module.workspaces ?? 0) <= 1)
  })

  it('validates the period', async () => {
    for (const q of ['from=2026-02-01&to=2026-01-01', 'from=2020-01-01&to=2026-01-01', 'from=yesterday', 'to=2026-13-01']) {
      const res = await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?${q}` })
      assert.equal(res.statusCode, 422, q)
    }
  })
})
