import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, json, type TestApp } from '../../../../../test/helpers.js'
import { authorizationInA, tokenRequest } from '../oauth.testkit.js'

describe('listOAuthAuthorizations', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const list = (query = '', key?: string) => h.request({ method: 'GET', url: `/v2/oauth/authorizations${query}`, ...(key ? { key } : {}) })

  it('lists the authorizations given in this workspace and mode, newest first, by cursor pages', async () => {
    const given = []
    for (let i = 0; i < 3; i++) given.push(await authorizationInA(h))
    const first = json(await list('?limit=2'))
    assert.deepEqual(
      first.data.map((a: { id: string }) => a.id),
      [given[2].id, given[1].id],
    )
    assert.equal(first.has_more, true)
    const second = json(await list(`?limit=2&cursor=${first.next_cursor}`))
    assert.deepEqual(
      second.data.map((a: { id: string }) => a.id),
      [given[0].id],
    )
    const [a] = first.data
    assert.equal(a.object, 'oauth_authorization')
    assert.equal(a.app_id, given[2].app.id)
    assert.equal(a.client_id, given[2].app.client_id)
    assert.equal(a.app_name, 'Partner CRM')
    assert.match(a.member_id, /^mem_/)
    assert.deepEqual(a.scopes, ['read'])
    assert.equal(a.status, 'active')
    assert.ok(Date.parse(a.expires_at) > Date.now())
    assert.equal(a.livemode, true)
    assert.equal(a.revoked_at, null)
    assert.ok(!JSON.stringify(first).includes(given[2].access_token), 'never a token')
  })

  it('shows an authorization the app revoked as revoked, with the reason', async () => {
    const g = await authorizationInA(h)
    await tokenRequest(h, { token: g.refresh_token }, { basic: [g.app.client_id, g.app.client_secret!], path: '/oauth/revoke' })
    const row = json(await list('?limit=100')).data.find((a: { id: string }) => a.id === g.id)
    assert.equal(row.status, 'revoked')
    assert.equal(row.revoked_reason, 'revoked by the app')
    assert.equal(row.expires_at, null)
  })

  it('never shows another workspace’s or the sandbox’s authorizations (the app’s owner sees none either)', async () => {
    await authorizationInA(h)
    assert.deepEqual(json(await list('', h.b.live)).data, [], 'Globex owns the app, Acme gave the authorization')
    assert.deepEqual(json(await h.request({ method: 'GET', url: '/sandbox/v2/oauth/authorizations', key: h.a.test })).data, [])
  })

  it('needs the admin scope', async () => {
    assertProblem(await list('', await h.key(['write'])), 403, 'insufficient_scope')
  })
})
