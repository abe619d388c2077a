import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { authorizeUrl, pkce, registerApp, responseParams, tokenRequest, REDIRECT } from './oauth.testkit.js'

/**
 * Issue 30, finding 9: the OAuth endpoints are also served under the base URLs, where the spec puts every
 * operation (§4.1), and the root ones stay. The whole code flow runs under /v2 here, and the sandbox base
 * URL answers the same endpoints.
 */
describe('OAuth endpoints under the base URLs', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  /** A cookie-keeping browser over inject. */
  function browser() {
    const jar = new Map<string, string>()
    const keep = (res: LightMyRequestResponse) => {
      const set = res.headers['set-cookie']
      for (const c of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
        const [pair] = c.split(';')
        const eq = pair.indexOf('=')
        jar.set(pair.slice(0, eq).trim(), decodeURIComponent(pair.slice(eq + 1).trim()))
      }
      return res
    }
    const cookie = () => (jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ') } : {})
    return {
      get: async (url: string) => keep(await h.http().inject({ method: 'GET', url, headers: cookie() })),
      post: async (url: string, form: Record<string, string>) =>
        keep(await h.http().inject({ method: 'POST', url, headers: { ...cookie(), 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(form).toString() })),
    }
  }

  it('runs the authorization code flow at /v2/oauth/authorize and /v2/oauth/token; the token works; /v2/oauth/revoke revokes it', async () => {
    const app = await registerApp(h)
    const email = `grantor-${randomBytes(6).toString('hex')}@example.com`
    const members = `/v2/workspaces/${h.a.workspaceId}/members`
    const member = JSON.parse((await h.request({ method: 'POST', url: members, payload: { email, role: 'admin' } })).body)
    await h.request({ method: 'PATCH', url: `${members}/${member.id}`, payload: { status: 'active' } })
    await h.app.services.signIn.setPassword(email, 'base url password 123')
    const b = browser()

    // Not signed in: /v2/oauth/authorize sends the browser to sign in, and back to itself.
    const { challenge, verifier } = pkce()
    const url = `/v2${authorizeUrl(app, { code_challenge: challenge, code_challenge_method: 'S256' })}`
    const toLogin = await b.get(url)
    assert.equal(toLogin.statusCode, 302, toLogin.body)
    const login = await b.get(String(toLogin.headers.location))
    const next = /name="next" value="([^"]+)"/.exec(login.body)![1].replace(/&amp;/g, '&')
    assert.ok(next.startsWith('/v2/oauth/authorize?'), next)
    const signedIn = await b.post('/login', { email, password: 'base url password 123', csrf_token: /name="csrf_token" value="([^"]+)"/.exec(login.body)![1], next })
    assert.equal(signedIn.headers.location, next)

    const page = await b.get(next)
    assert.equal(page.statusCode, 200, page.body.slice(0, 300))
    const fields: Record<string, string> = {}
    for (const m of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]] = m[2].replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    const granted = await b.post('/v2/oauth/authorize', { ...fields, tenant: `${h.a.workspaceId}:live`, decision: 'allow' })
    const code = responseParams(granted).get('code')
    assert.ok(code, String(granted.headers.location))

    const tokens = await tokenRequest(
      h,
      { grant_type: 'authorization_code', code: code!, redirect_uri: REDIRECT, client_id: app.client_id, client_secret: app.client_secret!, code_verifier: verifier },
      { path: '/v2/oauth/token' },
    )
    assert.equal(tokens.statusCode, 200, tokens.body)
    const { access_token, refresh_token } = JSON.parse(tokens.body)
    const current = () => h.http().inject({ method: 'GET', url: '/v2/workspaces/current', headers: { authorization: `Bearer ${access_token}` } })
    assert.equal((await current()).statusCode, 200)

    // Refresh at the sandbox base URL's endpoint too (the app's own mode decides, not the path).
    const refreshed = await tokenRequest(h, { grant_type: 'refresh_token', refresh_token, client_id: app.client_id, client_secret: app.client_secret! }, { path: '/sandbox/v2/oauth/token' })
    assert.equal(refreshed.statusCode, 200, refreshed.body)
    const second = JSON.parse(refreshed.body)

    const revoked = await tokenRequest(h, { token: second.refresh_token, client_id: app.client_id, client_secret: app.client_secret! }, { path: '/v2/oauth/revoke' })
    assert.equal(revoked.statusCode, 200, revoked.body)
    const after = await h.http().inject({ method: 'GET', url: '/v2/workspaces/current', headers: { authorization: `Bearer ${second.access_token}` } })
    assert.equal(after.statusCode, 401)
  })

  it('answers OAuth errors (not problems) under the base URLs as at the root, which stays', async () => {
    for (const path of ['/oauth/token', '/v2/oauth/token', '/sandbox/v2/oauth/token']) {
      const res = await tokenRequest(h, { grant_type: 'password', client_id: 'nope' }, { path })
      assert.match(String(res.headers['content-type']), /^application\/json/, path)
      assert.ok(['invalid_client', 'unsupported_grant_type'].includes(JSON.parse(res.body).error), `${path}: ${res.body}`)
      const form = await tokenRequest(h, { grant_type: 'authorization_code' }, { path, contentType: 'text/plain' })
      assert.equal(JSON.parse(form.body).error, 'invalid_request', `${path}: ${form.body}`)
    }
    // RFC 8414 metadata stays at the issuer's root only.
    assert.equal((await h.http().inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' })).statusCode, 200)
  })
})
