import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, events, json, type TestApp } from '../../../../../test/helpers.js'
import { api, authorizationInA, tokenRequest } from '../oauth.testkit.js'

describe('revokeOAuthAuthorization', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const revoke = (id: string, key?: string) => h.request({ method: 'POST', url: `/v2/oauth/authorizations/${id}/revoke`, ...(key ? { key } : {}) })

  it('revokes the authorization and every token from it at once; a second revoke answers it unchanged', async () => {
    const g = await authorizationInA(h)
    assert.equal((await api(h, g.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    const res = await revoke(g.id)
    assert.equal(res.statusCode, 200, res.body)
    const view = json(res)
    assert.equal(view.id, g.id)
    assert.equal(view.status, 'revoked')
    assert.equal(view.revoked_reason, 'revoked by the workspace')
    assertProblem(await api(h, g.access_token, 'GET', '/v2/workspaces/current'), 401)
    const refreshed = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: g.refresh_token, client_id: g.app.client_id, client_secret: g.app.client_secret! })
    assert.equal(json(refreshed).error, 'invalid_grant')
    const again = json(await revoke(g.id))
    assert.equal(again.revoked_at, view.revoked_at)
    assert.equal((await events(h, 'oauth_grant.revoked')).filter((e) => e.id === g.id).length, 1, 'one event')
    const audit = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('action', '=', 'revokeOAuthAuthorization').execute()
    assert.ok(audit.some((e) => e.target_id === g.id))
  })

  it('answers 404 for another workspace’s, the sandbox’s or an unknown authorization', async () => {
    const g = await authorizationInA(h)
    assertProblem(await revoke(g.id, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'POST', url: `/sandbox/v2/oauth/authorizations/${g.id}/revoke`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await revoke('ogr_unknown'), 404, 'resource_not_found')
    assert.equal((await api(h, g.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200, 'still works')
  })

  it('needs the admin scope', async () => {
    const g = await authorizationInA(h)
    assertProblem(await revoke(g.id, await h.key(['write'])), 403, 'insufficient_scope')
  })
})
