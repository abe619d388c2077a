import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, events, json, type TestApp } from '../../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../../workspaces/sign-in/sign-in.testkit.js'
import { api, authorizeUrl, consent, exchange, pkce, REDIRECT, registerApp, responseParams, tokenRequest, type TestOAuthApp } from './oauth.testkit.js'

const PASSWORD = 'member password 123'

describe('POST /oauth/token and /oauth/revoke', () => {
  let h: TestApp
  let app: TestOAuthApp
  let publicApp: TestOAuthApp
  let b: PageBrowser
  const clock = new ManualClock()
  before(async () => {
    h = await createTestApp({ clock })
    app = await registerApp(h)
    publicApp = await registerApp(h, { type: 'public' })
    await memberWithPassword(h, 'ada@example.com', PASSWORD)
    b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
  })
  after(() => h.close())

  const codeFor = async (a: TestOAuthApp, params: Record<string, string | null> = {}) => responseParams(await consent(b, authorizeUrl(a, params))).get('code')!
  const noStoreHeaders = (res: { headers: Record<string, unknown> }) => {
    assert.equal(res.headers['cache-control'], 'no-store')
    assert.equal(res.headers.pragma, 'no-cache')
  }

  it('exchanges a code for an opaque 1-hour access token and a refresh token (client_secret_post), stored hashed', async () => {
    const res = await exchange(h, app, await codeFor(app))
    assert.equal(res.statusCode, 200, res.body)
    noStoreHeaders(res)
    const t = json(res)
    assert.match(t.access_token, /^svc_oat_[A-Za-z0-9_-]{43}$/)
    assert.match(t.refresh_token, /^svc_ort_[A-Za-z0-9_-]{43}$/)
    assert.equal(t.token_type, 'Bearer')
    assert.equal(t.expires_in, 3600)
    assert.equal(t.scope, 'read')
    assert.equal(t.workspace_id, h.a.workspaceId)
    assert.equal(t.livemode, true)
    const rows = await h.app.kernel.db.selectFrom('oauth_tokens').selectAll().execute()
    assert.ok(!rows.some((r) => JSON.stringify(r).includes(t.access_token) || JSON.stringify(r).includes(t.refresh_token)))
    const refresh = rows.find((r) => r.kind === 'refresh')!
    assert.equal(Date.parse(refresh.expires_at) - Date.parse(refresh.created_at), 30 * 86400_000)
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
  })

  it('authenticates confidential clients with HTTP Basic too, and refuses a wrong or missing secret (401 invalid_client)', async () => {
    const basic = await tokenRequest(h, { grant_type: 'authorization_code', code: await codeFor(app), redirect_uri: REDIRECT }, { basic: [app.client_id, app.client_secret!] })
    assert.equal(basic.statusCode, 200, basic.body)
    for (const res of [
      await tokenRequest(h, { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT }, { basic: [app.client_id, 'svc_ocs_wrong'] }),
      await tokenRequest(h, { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: app.client_id }),
      await tokenRequest(h, { grant_type: 'authorization_code', code: 'x', redirect_uri: REDIRECT, client_id: 'svc_oci_unknown', client_secret: 'x' }),
      await tokenRequest(h, { grant_type: 'authorization_code', code: 'x' }),
    ]) {
      assert.equal(res.statusCode, 401, res.body)
      assert.equal(json(res).error, 'invalid_client')
      assert.match(String(res.headers['www-authenticate']), /^Basic realm=/)
      noStoreHeaders(res)
    }
    const both = await tokenRequest(h, { grant_type: 'authorization_code', code: 'x', client_secret: app.client_secret! }, { basic: [app.client_id, app.client_secret!] })
    assert.equal(json(both).error, 'invalid_request')
  })

  it('answers RFC 6749 errors: unsupported grant type, repeated parameters, not a form', async () => {
    const creds = { client_id: app.client_id, client_secret: app.client_secret! }
    assert.equal(json(await tokenRequest(h, { ...creds, grant_type: 'password' })).error, 'unsupported_grant_type')
    assert.equal(json(await tokenRequest(h, { ...creds, grant_type: 'client_credentials' })).error, 'unsupported_grant_type')
    assert.equal(json(await tokenRequest(h, { ...creds })).error, 'invalid_request')
    const repeated = await h.http().inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${new URLSearchParams(creds)}&grant_type=authorization_code&grant_type=refresh_token`,
    })
    assert.equal(json(repeated).error, 'invalid_request')
    const asJson = await h.http().inject({ method: 'POST', url: '/oauth/token', payload: { ...creds, grant_type: 'authorization_code' } })
    assert.equal(asJson.statusCode, 400)
    assert.equal(json(asJson).error, 'invalid_request')
    const text = await h.http().inject({ method: 'POST', url: '/oauth/token', headers: { 'content-type': 'text/plain' }, payload: 'x' })
    assert.equal(json(text).error, 'invalid_request')
  })

  it('requires the redirect_uri of the authorization request, exactly', async () => {
    const code = await codeFor(app)
    for (const redirect_uri of ['https://partner.example.com/oauth/callback/', 'https://partner.example.com/oauth']) {
      assert.equal(json(await exchange(h, app, code, { redirect_uri })).error, 'invalid_grant')
    }
    const missing = await tokenRequest(h, { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret! })
    assert.equal(json(missing).error, 'invalid_grant')
    assert.equal((await exchange(h, app, code)).statusCode, 200, 'a refused attempt does not spend the code')
  })

  it('verifies PKCE: a public client needs the right verifier; a confidential one that sent a challenge too', async () => {
    const p = pkce()
    const code = await codeFor(publicApp, { code_challenge: p.challenge, code_challenge_method: 'S256' })
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: publicApp.client_id }
    assert.equal(json(await tokenRequest(h, base)).error, 'invalid_grant', 'no verifier')
    assert.equal(json(await tokenRequest(h, { ...base, code_verifier: pkce().verifier })).error, 'invalid_grant', 'another verifier')
    assert.equal(json(await tokenRequest(h, { ...base, code_verifier: p.challenge })).error, 'invalid_grant', 'the challenge itself (plain)')
    assert.equal(json(await tokenRequest(h, { ...base, code_verifier: p.verifier, client_secret: 'x' })).error, 'invalid_client', 'a public client has no secret')
    const ok = await tokenRequest(h, { ...base, code_verifier: p.verifier })
    assert.equal(ok.statusCode, 200, ok.body)
    const q = pkce()
    const confidential = await codeFor(app, { code_challenge: q.challenge, code_challenge_method: 'S256' })
    assert.equal(json(await exchange(h, app, confidential)).error, 'invalid_grant')
    assert.equal((await exchange(h, app, confidential, { code_verifier: q.verifier })).statusCode, 200)
  })

  it('refuses a code_verifier for a code issued without a challenge (PKCE downgrade)', async () => {
    const code = await codeFor(app)
    assert.equal(json(await exchange(h, app, code, { code_verifier: pkce().verifier })).error, 'invalid_grant')
  })

  it('refuses another client’s code and an expired code (60 s)', async () => {
    const other = await registerApp(h)
    const code = await codeFor(app)
    assert.equal(json(await exchange(h, other, code)).error, 'invalid_grant')
    clock.advance(61_000)
    const expired = await exchange(h, app, code)
    assert.equal(json(expired).error, 'invalid_grant')
    assert.match(json(expired).error_description, /expired/)
  })

  it('refuses a reused code AND revokes every token issued from it', async () => {
    const code = await codeFor(app)
    const first = json(await exchange(h, app, code))
    assert.equal((await api(h, first.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    const again = await exchange(h, app, code)
    assert.equal(again.statusCode, 400)
    assert.equal(json(again).error, 'invalid_grant')
    const denied = await api(h, first.access_token, 'GET', '/v2/workspaces/current')
    assert.equal(denied.statusCode, 401)
    assert.match(String(denied.headers['www-authenticate']), /^Bearer realm="svc", error="invalid_token"$/)
    assert.equal(json(await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: first.refresh_token, client_id: app.client_id, client_secret: app.client_secret! })).error, 'invalid_grant')
    const [revoked] = (await events(h, 'oauth_grant.revoked')).slice(-1)
    assert.equal(revoked.revoked_reason, 'authorization code reused')
  })

  it('rotates refresh tokens; replaying a rotated one revokes the whole family', async () => {
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      tokenRequest(h, { grant_type: 'refresh_token', refresh_token: token, client_id: app.client_id, client_secret: app.client_secret!, ...extra })
    const t0 = json(await exchange(h, app, await codeFor(app, { scope: 'read leads:read' })))
    const r1 = await refresh(t0.refresh_token)
    assert.equal(r1.statusCode, 200, r1.body)
    noStoreHeaders(r1)
    const t1 = json(r1)
    assert.notEqual(t1.refresh_token, t0.refresh_token)
    assert.notEqual(t1.access_token, t0.access_token)
    // A narrower scope narrows the access token; the refresh token keeps what was granted.
    const t2 = json(await refresh(t1.refresh_token, { scope: 'leads:read' }))
    assert.equal(t2.scope, 'leads:read')
    assert.equal(json(await refresh(t2.refresh_token, { scope: 'read write' })).error, 'invalid_scope')
    const t3 = json(await refresh(t2.refresh_token))
    assert.equal(t3.scope, 'read leads:read')
    assert.equal((await api(h, t3.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    // The attacker replays an old refresh token: refused, and the legitimate client's tokens die with it.
    const replay = await refresh(t1.refresh_token)
    assert.equal(json(replay).error, 'invalid_grant')
    assert.equal((await api(h, t3.access_token, 'GET', '/v2/workspaces/current')).statusCode, 401)
    assert.equal(json(await refresh(t3.refresh_token)).error, 'invalid_grant')
    assert.equal((await events(h, 'oauth_grant.revoked')).at(-1).revoked_reason, 'refresh token replayed')
    const audit = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('action', '=', 'oauthToken').execute()
    assert.ok(audit.some((a) => a.actor_type === 'oauth_app' && a.actor_id === app.id))
  })

  it('ends refresh when the member leaves the workspace', async () => {
    await memberWithPassword(h, 'leaver@example.com', PASSWORD)
    const leaver = new PageBrowser(h)
    await leaver.signIn('leaver@example.com', PASSWORD)
    const t = json(await exchange(h, app, responseParams(await consent(leaver, authorizeUrl(app))).get('code')!))
    const members = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=100` })).data
    const id = members.find((m: { email: string }) => m.email === 'leaver@example.com').id
    await h.request({ method: 'DELETE', url: `/v2/workspaces/${h.a.workspaceId}/members/${id}` })
    assert.equal(json(await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: app.client_id, client_secret: app.client_secret! })).error, 'invalid_grant')
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 401)
  })

  it('revokes (RFC 7009): an access token alone, a refresh token with its family; unknown tokens answer 200', async () => {
    const revoke = (token: string, a: TestOAuthApp = app) =>
      tokenRequest(h, { token, client_id: a.client_id, ...(a.client_secret ? { client_secret: a.client_secret } : {}) }, { path: '/oauth/revoke' })
    const t = json(await exchange(h, app, await codeFor(app)))
    const r = await revoke(t.access_token)
    assert.equal(r.statusCode, 200)
    noStoreHeaders(r)
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 401)
    const t2 = json(await tokenRequest(h, { grant_type: 'refresh_token', refresh_token: t.refresh_token, client_id: app.client_id, client_secret: app.client_secret! }))
    assert.equal((await api(h, t2.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200, 'the refresh token survived')
    // Another client cannot revoke it.
    const other = await registerApp(h)
    assert.equal((await revoke(t2.refresh_token, other)).statusCode, 200)
    assert.equal((await api(h, t2.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    assert.equal((await revoke(t2.refresh_token)).statusCode, 200)
    assert.equal((await api(h, t2.access_token, 'GET', '/v2/workspaces/current')).statusCode, 401, 'the family went with it')
    assert.equal((await revoke('svc_oat_unknown')).statusCode, 200)
    const unauthenticated = await tokenRequest(h, { token: t.access_token, client_id: app.client_id, client_secret: 'wrong' }, { path: '/oauth/revoke' })
    assert.equal(json(unauthenticated).error, 'invalid_client')
  })

  it('publishes RFC 8414 metadata', async () => {
    const res = await h.http().inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })
    assert.equal(res.statusCode, 200)
    const m = json(res)
    assert.equal(m.issuer, h.config.publicUrl)
    assert.equal(m.authorization_endpoint, `${h.config.publicUrl}/oauth/authorize`)
    assert.equal(m.token_endpoint, `${h.config.publicUrl}/oauth/token`)
    assert.equal(m.revocation_endpoint, `${h.config.publicUrl}/oauth/revoke`)
    assert.deepEqual(m.code_challenge_methods_supported, ['S256'])
    assert.deepEqual(m.response_types_supported, ['code'])
    assert.ok(m.scopes_supported.includes('admin') && m.scopes_supported.includes('leads:write'))
    assert.equal(m.authorization_response_iss_parameter_supported, true)
  })
})
