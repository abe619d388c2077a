import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { buildApp, type App } from '../../../app.js'
import { assertProblem, createTestApp, events, json, type TestApp } from '../../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../../workspaces/sign-in/sign-in.testkit.js'
import { api, authorizeUrl, consent, exchange, registerApp, responseParams, tokenRequest, type TestOAuthApp } from './oauth.testkit.js'

const PASSWORD = 'member password 123'

/** Membership is part of every grant (issue 30, finding 1): removing or demoting a member ends what they authorized, at once, on every node. */
describe('OAuth grants follow membership', () => {
  let h: TestApp
  let app: TestOAuthApp
  let node2: App
  before(async () => {
    h = await createTestApp()
    app = await registerApp(h, {}, h.b.live)
    // A second node on the same database: a revocation must hold there on the next request too.
    node2 = await buildApp({ config: h.config })
  })
  after(async () => {
    await node2.close()
    await h.close()
  })

  const members = () => `/v2/workspaces/${h.a.workspaceId}/members`
  const memberId = async (email: string) => json(await h.request({ method: 'GET', url: `${members()}?limit=100` })).data.find((m: { email: string }) => m.email === email).id as string
  const authorize = async (email: string, role: string, scope: string) => {
    await memberWithPassword(h, email, PASSWORD, { role })
    const b = new PageBrowser(h)
    await b.signIn(email, PASSWORD)
    const code = responseParams(await consent(b, authorizeUrl(app, { scope }), { tenant: `${h.a.workspaceId}:live` })).get('code')!
    const tokens = json(await exchange(h, app, code))
    assert.ok(tokens.access_token, JSON.stringify(tokens))
    return { ...tokens, memberId: await memberId(email) } as { access_token: string; refresh_token: string; memberId: string }
  }
  const onNode2 = (token: string) => node2.http.inject({ method: 'GET', url: '/v2/workspaces/current', headers: { authorization: `Bearer ${token}` } })
  const refresh = (token: string) => tokenRequest(h, { grant_type: 'refresh_token', refresh_token: token, client_id: app.client_id, client_secret: app.client_secret! })
  const mintKey = (token: string) => api(h, token, 'POST', '/v2/api-keys', { name: 'escape hatch', scopes: ['admin'] })

  it('a removed member’s access token is 401 at once on every node, cannot mint an API key, and its refresh token is refused', async () => {
    const t = await authorize('leaver@example.com', 'admin', 'admin')
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    assert.equal((await onNode2(t.access_token)).statusCode, 200)

    const removed = await h.request({ method: 'DELETE', url: `${members()}/${t.memberId}` })
    assert.equal(removed.statusCode, 200, removed.body)

    assertProblem(await api(h, t.access_token, 'GET', '/v2/workspaces/current'), 401)
    assertProblem(await onNode2(t.access_token), 401)
    const minted = await mintKey(t.access_token)
    assertProblem(minted, 401)
    const r = await refresh(t.refresh_token)
    assert.equal(r.statusCode, 400)
    assert.equal(json(r).error, 'invalid_grant')

    const listed = json(await h.request({ method: 'GET', url: '/v2/oauth/authorizations' })).data.find((a: { member_id: string }) => a.member_id === t.memberId)
    assert.equal(listed.status, 'revoked')
    assert.equal(listed.revoked_reason, 'member removed')
    const revokedEvents = (await events(h, 'oauth_grant.revoked')).filter((e) => e.member_id === t.memberId)
    assert.equal(revokedEvents.length, 1)
    const tokens = await h.app.kernel.db.selectFrom('oauth_tokens').select(['revoked_at']).where('grant_id', '=', listed.id).execute()
    assert.ok(tokens.length === 2 && tokens.every((x) => x.revoked_at), 'every token of the grant is revoked in the database')
  })

  it('a demoted member’s grants are revoked (all of them, whatever their scopes); a promotion or a rename revokes nothing', async () => {
    const admin = await authorize('demoted@example.com', 'admin', 'admin')
    const reader = await authorize('renamed@example.com', 'member', 'read')
    const rename = await h.request({ method: 'PATCH', url: `${members()}/${reader.memberId}`, payload: { name: 'Still here' } })
    assert.equal(rename.statusCode, 200, rename.body)
    const promote = await h.request({ method: 'PATCH', url: `${members()}/${reader.memberId}`, payload: { role: 'admin' } })
    assert.equal(promote.statusCode, 200, promote.body)
    assert.equal((await api(h, reader.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200, 'promotion keeps the grant')

    const demote = await h.request({ method: 'PATCH', url: `${members()}/${admin.memberId}`, payload: { role: 'member' } })
    assert.equal(demote.statusCode, 200, demote.body)
    assertProblem(await api(h, admin.access_token, 'GET', '/v2/workspaces/current'), 401)
    assertProblem(await onNode2(admin.access_token), 401)
    assertProblem(await mintKey(admin.access_token), 401)
    assert.equal(json(await refresh(admin.refresh_token)).error, 'invalid_grant')
    const listed = json(await h.request({ method: 'GET', url: '/v2/oauth/authorizations?limit=100' })).data
    assert.equal(listed.find((a: { member_id: string }) => a.member_id === admin.memberId).revoked_reason, 'member demoted')
    assert.equal(listed.find((a: { member_id: string }) => a.member_id === reader.memberId).status, 'active')
  })

  it('a removal that fails (the last owner) revokes nothing', async () => {
    const t = await authorize('owner2@example.com', 'owner', 'read')
    const owners = json(await h.request({ method: 'GET', url: `${members()}?limit=100` })).data.filter((m: { role: string }) => m.role === 'owner')
    // Two owners: remove the original one, then the last owner (the grantor) cannot be removed.
    for (const o of owners.filter((m: { id: string }) => m.id !== t.memberId)) assert.equal((await h.request({ method: 'DELETE', url: `${members()}/${o.id}` })).statusCode, 200)
    assertProblem(await h.request({ method: 'DELETE', url: `${members()}/${t.memberId}` }), 409, 'last_owner')
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
  })
})
