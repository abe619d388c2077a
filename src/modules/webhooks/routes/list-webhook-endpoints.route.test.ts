import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('listWebhookEndpoints', () => {
  let h: TestApp
  const ids: string[] = []
  before(async () => {
    h = await createTestApp()
    for (let i = 0; i < 3; i++) ids.push(json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: `https://example.com/${i}` } })).id)
    await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', key: h.b.live, payload: { url: 'https://example.com/b' } })
    await h.request({ method: 'POST', url: '/sandbox/v2/webhooks/endpoints', key: h.a.test, payload: { url: 'https://example.com/sandbox' } })
  })
  after(() => h.close())

  it('lists the workspace’s endpoints of this mode newest first, with cursor pagination', async () => {
    const p1 = json(await h.request({ method: 'GET', url: '/v2/webhooks/endpoints?limit=2' }))
    assert.equal(p1.object, 'list')
    assert.deepEqual(
      p1.data.map((e: any) => e.id),
      [ids[2], ids[1]],
    )
    assert.equal(p1.has_more, true)
    const p2 = json(await h.request({ method: 'GET', url: `/v2/webhooks/endpoints?limit=2&cursor=${p1.next_cursor}` }))
    assert.deepEqual(
      p2.data.map((e: any) => e.id),
      [ids[0]],
    )
    assert.equal(p2.has_more, false)
    assert.equal(p2.next_cursor, null)
  })

  it('rejects a cursor of another list with 422', async () => {
    const p1 = json(await h.request({ method: 'GET', url: '/v2/webhooks/endpoints?limit=1' }))
    const r = await h.request({ method: 'GET', url: `/v2/webhooks/endpoints?cursor=${p1.next_cursor}`, key: h.b.live })
    assert.equal(r.statusCode, 422)
  })

  it('needs webhooks:read', async () => {
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/endpoints', key: null })).statusCode, 401)
    const other = await h.key(['conversations:read'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/endpoints', key: other })).statusCode, 403)
    const read = await h.key(['webhooks:read'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/webhooks/endpoints', key: read })).statusCode, 200)
  })
})
