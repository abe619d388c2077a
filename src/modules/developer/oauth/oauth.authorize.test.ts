import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, events, type TestApp } from '../../../../test/helpers.js'
import { csrfOf, memberWithPassword, PageBrowser } from '../../workspaces/sign-in/sign-in.testkit.js'
import { authorizeUrl, consent, pkce, REDIRECT, registerApp, responseParams, type TestOAuthApp } from './oauth.testkit.js'

const PASSWORD = 'member password 123'

describe('GET/POST /oauth/authorize', () => {
  let h: TestApp
  let app: TestOAuthApp
  let publicApp: TestOAuthApp
  let b: PageBrowser
  before(async () => {
    h = await createTestApp()
    app = await registerApp(h, { redirect_uris: [REDIRECT, 'http://127.0.0.1:8123/cb'] })
    publicApp = await registerApp(h, { type: 'public' })
    await memberWithPassword(h, 'ada@example.com', PASSWORD)
    b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
  })
  after(() => h.close())

  const noRedirect = (res: { statusCode: number; headers: Record<string, unknown>; body: string }, why: RegExp) => {
    assert.equal(res.statusCode, 400)
    assert.equal(res.headers.location, undefined, 'never redirects')
    assert.match(String(res.headers['content-type']), /text\/html/)
    assert.match(res.body, why)
  }

  it('shows an error page, never a redirect, for an unknown client or a missing client_id', async () => {
    noRedirect(await b.get(authorizeUrl({ client_id: 'svc_oci_nope' })), /No application has this client_id/)
    noRedirect(await b.get(authorizeUrl(app, { client_id: null })), /no client_id/)
  })

  it('matches the redirect URI exactly: a prefix, another port, an added path, a trailing slash or a case change are refused', async () => {
    for (const uri of [
      'https://partner.example.com/oauth',
      'https://partner.example.com:8443/oauth/callback',
      'https://partner.example.com/oauth/callback/extra',
      'https://partner.example.com/oauth/callback?x=1',
      'https://partner.example.com/oauth/callback/',
      'https://PARTNER.example.com/oauth/callback',
      'https://evil.example/oauth/callback',
      'http://127.0.0.1:8124/cb',
      'http://localhost:8123/cb',
    ]) {
      noRedirect(await b.get(authorizeUrl(app, { redirect_uri: uri })), /redirect_uri must be exactly/)
    }
    noRedirect(await b.get(authorizeUrl(app, { redirect_uri: null })), /redirect_uri must be exactly/)
    noRedirect(await b.get(`${authorizeUrl(app)}&redirect_uri=${encodeURIComponent(REDIRECT)}`), /more than once/)
    assert.equal((await b.get(authorizeUrl(app, { redirect_uri: 'http://127.0.0.1:8123/cb' }))).statusCode, 200)
  })

  it('redirects other errors to the client with error, state and iss', async () => {
    const cases: [Record<string, string | null>, string][] = [
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ response_type: null }, 'invalid_request'],
      [{ scope: 'read root' }, 'invalid_scope'],
      [{ scope: 'bots:write' }, 'invalid_scope'],
      [{ scope: null }, 'invalid_scope'],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{ code_challenge: pkce().challenge }, 'invalid_request'],
      [{ code_challenge_method: 'S256' }, 'invalid_request'],
      [{ code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
    ]
    for (const [params, error] of cases) {
      const res = await b.get(authorizeUrl(app, params))
      assert.equal(res.statusCode, 303, JSON.stringify(params))
      const q = responseParams(res)
      assert.equal(q.get('error'), error, JSON.stringify(params))
      assert.equal(q.get('state'), 'st-123')
      assert.equal(q.get('iss'), h.config.publicUrl)
      assert.equal(new URL(String(res.headers.location)).origin + new URL(String(res.headers.location)).pathname, REDIRECT)
    }
  })

  it('requires PKCE S256 from a public client', async () => {
    const res = await b.get(authorizeUrl(publicApp))
    assert.equal(responseParams(res).get('error'), 'invalid_request')
    assert.match(String(responseParams(res).get('error_description')), /PKCE/)
    assert.equal((await b.get(authorizeUrl(publicApp, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }))).statusCode, 200)
  })

  it('sends a signed-out browser to sign in, then back to the same request', async () => {
    const anon = new PageBrowser(h)
    const url = authorizeUrl(app)
    const res = await anon.get(url)
    assert.equal(res.statusCode, 302)
    assert.equal(res.headers.location, `/login?next=${encodeURIComponent(url)}`)
    const signedIn = await anon.signIn('ada@example.com', PASSWORD, url)
    assert.equal(signedIn.headers.location, url)
    assert.equal((await anon.get(url)).statusCode, 200)
  })

  it('shows the consent page: app, scopes, the member’s workspaces; framing denied, forms only to here and the client', async () => {
    const res = await b.get(authorizeUrl(app, { scope: 'read leads:read' }))
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /Authorize Partner CRM/)
    assert.match(res.body, /<strong>read<\/strong>/)
    assert.match(res.body, /<strong>leads:read<\/strong>/)
    assert.match(res.body, new RegExp(`<option value="${h.a.workspaceId}:live">Acme \\(live\\)</option>`))
    assert.doesNotMatch(res.body, /<script/i)
    const csp = String(res.headers['content-security-policy'])
    assert.match(csp, /frame-ancestors 'none'/)
    assert.match(csp, /form-action 'self' https:\/\/partner\.example\.com(;|$)/)
    assert.equal(res.headers['cache-control'], 'no-store')
  })

  it('denial redirects with access_denied and the state', async () => {
    const q = responseParams(await consent(b, authorizeUrl(app), { decision: 'deny' }))
    assert.equal(q.get('error'), 'access_denied')
    assert.equal(q.get('state'), 'st-123')
    assert.equal(q.get('code'), null)
  })

  it('consent redirects with a single-use code (stored hashed, 60 s), the state and iss; audited; announced', async () => {
    const res = await consent(b, authorizeUrl(app, { scope: 'read leads:read' }))
    assert.equal(res.statusCode, 303)
    const q = responseParams(res)
    assert.match(String(q.get('code')), /^svc_oac_[A-Za-z0-9_-]{43}$/)
    assert.equal(q.get('state'), 'st-123')
    assert.equal(q.get('iss'), h.config.publicUrl)
    const grant = await h.app.kernel.db.selectFrom('oauth_grants').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow()
    assert.ok(!JSON.stringify(grant).includes(q.get('code')!))
    assert.equal(Date.parse(grant.code_expires_at) - Date.parse(grant.created_at), 60_000)
    assert.equal(grant.scopes, 'read leads:read')
    const audit = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('action', '=', 'authorizeOAuthApp').executeTakeFirstOrThrow()
    assert.equal(audit.actor_type, 'member')
    assert.equal(audit.target_id, grant.id)
    assert.equal((await events(h, 'oauth_grant.created')).at(-1).id, grant.id)
  })

  it('refuses a consent without the session’s CSRF token (403), for a workspace the member is not in, and admin from a plain member', async () => {
    const page = await b.get(authorizeUrl(app))
    const fields = { response_type: 'code', client_id: app.client_id, redirect_uri: REDIRECT, scope: 'read', state: 's', tenant: `${h.a.workspaceId}:live`, decision: 'allow' }
    const forged = await b.post('/oauth/authorize', fields)
    assert.equal(forged.statusCode, 403)
    assert.equal(forged.headers.location, undefined)
    const other = await b.post('/oauth/authorize', { ...fields, csrf_token: csrfOf(page.body), tenant: `${h.b.workspaceId}:live` })
    assert.equal(other.statusCode, 403)
    const sandbox = await b.post('/oauth/authorize', { ...fields, csrf_token: csrfOf(page.body), tenant: `${h.a.workspaceId}:test` })
    assert.equal(sandbox.statusCode, 403, 'ada is a member of live only')
    const admin = await b.post('/oauth/authorize', { ...fields, scope: 'admin', csrf_token: csrfOf(page.body) })
    assert.equal(admin.statusCode, 403)
    assert.match(admin.body, /owner or admin/)
  })

  it('lets a sandbox app be authorized only for sandbox data', async () => {
    const sandboxApp = await registerApp(h, {}, h.a.test)
    await memberWithPassword(h, 'sam@example.com', PASSWORD, { key: h.a.test })
    const sam = new PageBrowser(h)
    await sam.signIn('sam@example.com', PASSWORD)
    const page = await sam.get(authorizeUrl(sandboxApp))
    assert.match(page.body, new RegExp(`value="${h.a.workspaceId}:test"`))
    // Ada is a live member only: nothing this app may be authorized for.
    assert.equal((await b.get(authorizeUrl(sandboxApp))).statusCode, 403)
  })
})
