import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, json, type TestApp } from '../../../../../test/helpers.js'
import { registerApp } from '../oauth.testkit.js'

describe('listOAuthApps', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('lists this workspace’s apps newest first, by cursor pages, never another workspace’s', async () => {
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await registerApp(h, { name: `App ${i}` })).id)
    await registerApp(h, { name: 'Globex app' }, h.b.live)
    const first = json(await h.request({ method: 'GET', url: '/v2/oauth/apps?limit=2' }))
    assert.deepEqual(
      first.data.map((a: { id: string }) => a.id),
      [ids[2], ids[1]],
    )
    assert.equal(first.has_more, true)
    const second = json(await h.request({ method: 'GET', url: `/v2/oauth/apps?limit=2&cursor=${first.next_cursor}` }))
    assert.deepEqual(
      second.data.map((a: { id: string }) => a.id),
      [ids[0]],
    )
    assert.equal(second.has_more, false)
    assert.ok(first.data.every((a: Record<string, unknown>) => !('client_secret' in a)))
    const other = json(await h.request({ method: 'GET', url: '/v2/oauth/apps', key: h.b.live })).data
    assert.deepEqual(
      other.map((a: { name: string }) => a.name),
      ['Globex app'],
    )
  })

  it('refuses a cursor of another workspace', async () => {
    const page = json(await h.request({ method: 'GET', url: '/v2/oauth/apps?limit=1' }))
    assertProblem(await h.request({ method: 'GET', url: `/v2/oauth/apps?cursor=${page.next_cursor}`, key: h.b.live }), 422, 'invalid_cursor')
  })
})
