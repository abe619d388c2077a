import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, events, json, type TestApp } from '../../../../../test/helpers.js'
import { api, authorizationInA, authorizeUrl, registerApp, tokenRequest } from '../oauth.testkit.js'

describe('deleteOAuthApp', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const del = (ref: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/oauth/apps/${ref}`, ...(key ? { key } : {}) })

  it('deletes the app and revokes every authorization of it, in the workspaces that gave them', async () => {
    // authorizationInA registers the app in Globex (h.b) and authorizes it in Acme.
    const g = await authorizationInA(h)
    assert.equal((await api(h, g.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    const res = await del(g.app.id, h.b.live)
    assert.equal(res.statusCode, 200, res.body)
    assert.deepEqual(json(res), { id: g.app.id, object: 'oauth_app', client_id: g.app.client_id, deleted: true, revoked_authorizations: 1 })
    assertProblem(await api(h, g.access_token, 'GET', '/v2/workspaces/current'), 401)
    const refreshed = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: g.refresh_token, client_id: g.app.client_id, client_secret: g.app.client_secret! })
    assert.equal(refreshed.statusCode, 401, 'the client is unknown now')
    assert.equal((await h.http().inject({ method: 'GET', url: authorizeUrl(g.app) })).statusCode, 400, 'the authorization page knows no such client')
    const listed = json(await h.request({ method: 'GET', url: '/v2/oauth/authorizations' })).data.find((a: { id: string }) => a.id === g.id)
    assert.equal(listed.status, 'revoked')
    assert.equal(listed.revoked_reason, 'app deleted')
    assert.equal(listed.app_name, null)
    assert.ok(!json(await h.request({ method: 'GET', url: '/v2/oauth/apps', key: h.b.live })).data.some((a: { id: string }) => a.id === g.app.id))
    assert.equal((await events(h, 'oauth_app.deleted')).at(-1).id, g.app.id)
    assert.ok((await events(h, 'oauth_grant.revoked')).some((e) => e.id === g.id && e.revoked_reason === 'app deleted'))
  })

  it('accepts the client_id in place of the id; a second delete is 404', async () => {
    const app = await registerApp(h)
    assert.equal(json(await del(app.client_id)).id, app.id)
    assertProblem(await del(app.id), 404, 'resource_not_found')
  })

  it('answers 404 for another workspace’s or the sandbox’s app, and needs the admin scope', async () => {
    const app = await registerApp(h)
    assertProblem(await del(app.id, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'DELETE', url: `/sandbox/v2/oauth/apps/${app.id}`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await del(app.id, await h.key(['write'])), 403, 'insufficient_scope')
    assert.equal((await h.request({ method: 'GET', url: '/v2/oauth/apps' })).statusCode, 200)
    assert.ok(
      json(await h.request({ method: 'GET', url: '/v2/oauth/apps' })).data.some((a: { id: string }) => a.id === app.id),
      'still there',
    )
  })
})
