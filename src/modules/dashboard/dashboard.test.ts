import assert from 'node:assert/strict'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, type TestApp } from '../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../workspaces/sign-in/sign-in.test-support.js'

const PASSWORD = 'dashboard password 123'

/** The dashboard's server side over inject: pages, session, tokens (the browser flows are in dashboard/e2e). */
describe('dashboard session tokens and pages', () => {
  let h: TestApp
  let dir: string
  before(async () => {
    // A stand-in build: these tests are about the server, not the app's bundle.
    dir = mkdtempSync(join(tmpdir(), 'svc-dashboard-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Dashboard</title><script type="module" src="/dashboard/assets/app-TEST.js"></script>')
    writeFileSync(join(dir, 'assets', 'app-TEST.js'), 'console.log(1)')
    writeFileSync(join(dir, 'assets', 'app-TEST.js.br'), brotliCompressSync('console.log(1)'))
    h = await createTestApp({ env: { DASHBOARD_DIR: dir } })
    await h.app.services.signIn.setPassword('owner@acme.example', PASSWORD)
    await memberWithPassword(h, 'mia@example.com', PASSWORD, { role: 'member' })
  })
  after(async () => {
    await h?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  async function signedIn(email = 'owner@acme.example') {
    const b = new PageBrowser(h)
    const res = await b.signIn(email, PASSWORD, '/dashboard')
    assert.equal(res.statusCode, 303, res.body)
    const session = await b.get('/dashboard/session')
    assert.equal(session.statusCode, 200)
    return { b, session: JSON.parse(session.body) }
  }
  async function token(b: PageBrowser, csrf: string | null, body: object) {
    const cookie = [...b.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
    return h.http().inject({ method: 'POST', url: '/dashboard/session/tokens', headers: { cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) }, payload: body })
  }
  const api = (t: string, url: string, method: 'GET' | 'POST' = 'GET', payload?: object) => h.http().inject({ method, url, headers: { authorization: `Bearer ${t}` }, ...(payload ? { payload } : {}) })

  it('sends a signed-out browser to sign in, and serves the app with a strict CSP once signed in', async () => {
    const anon = await h.http().inject({ method: 'GET', url: '/dashboard/inbox?x=1' })
    assert.equal(anon.statusCode, 302)
    assert.equal(anon.headers.location, '/login?next=%2Fdashboard%2Finbox%3Fx%3D1')
    const { b } = await signedIn()
    const page = await b.get('/dashboard/inbox')
    assert.equal(page.statusCode, 200)
    const csp = String(page.headers['content-security-policy'])
    assert.match(csp, /script-src 'self'/)
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/)
    assert.match(csp, /frame-ancestors 'none'/)
    const asset = await h.http().inject({ method: 'GET', url: '/dashboard/assets/app-TEST.js' })
    assert.equal(asset.statusCode, 200)
    assert.match(String(asset.headers['cache-control']), /immutable/)
    const compressed = await h.http().inject({ method: 'GET', url: '/dashboard/assets/app-TEST.js', headers: { 'accept-encoding': 'br, gzip' } })
    assert.equal(compressed.headers['content-encoding'], 'br', 'the build’s precompressed copy')
    assertProblem(await h.http().inject({ method: 'GET', url: '/dashboard/session' }), 401, 'unauthorized')
  })

  it('gives a token for a membership only with the session CSRF token; the token acts as the member with the role scopes', async () => {
    const { b, session } = await signedIn()
    const live = session.memberships.find((m: any) => m.workspace_id === h.a.workspaceId && m.mode === 'live')
    assert.ok(live && session.memberships.some((m: any) => m.mode === 'test'))
    assertProblem(await token(b, null, { workspace_id: h.a.workspaceId, mode: 'live' }), 403, 'forbidden')
    assertProblem(await token(b, 'forged', { workspace_id: h.a.workspaceId, mode: 'live' }), 403, 'forbidden')
    assertProblem(await token(b, session.csrf_token, { workspace_id: h.b.workspaceId, mode: 'live' }), 404, 'resource_not_found')
    assertProblem(await token(b, session.csrf_token, { workspace_id: h.a.workspaceId }), 422, 'validation_failed')
    const res = await token(b, session.csrf_token, { workspace_id: h.a.workspaceId, mode: 'live' })
    assert.equal(res.statusCode, 201)
    const t = JSON.parse(res.body)
    assert.match(t.token, /^svc_dash_/)
    assert.deepEqual(t.scopes, ['admin'])
    assert.equal(JSON.parse((await api(t.token, '/v2/workspaces/current')).body).id, h.a.workspaceId)
    assertProblem(await api(t.token, '/sandbox/v2/workspaces/current'), 401, 'wrong_environment')
    // What it does is audited as the member.
    const made = await api(t.token, '/v2/api-keys', 'POST', { scopes: ['read'] })
    assert.equal(made.statusCode, 201)
    const audit = JSON.parse((await h.request({ method: 'GET', url: '/v2/compliance/audit-log?limit=100' })).body)
    const entry = audit.data.find((e: any) => e.action === 'createApiKey')
    assert.match(JSON.stringify(entry), new RegExp(live.member_id))
  })

  it('a member (not owner or admin) gets write, not admin', async () => {
    const { b, session } = await signedIn('mia@example.com')
    const t = JSON.parse((await token(b, session.csrf_token, { workspace_id: h.a.workspaceId, mode: 'live' })).body)
    assert.deepEqual(t.scopes, ['write'])
    assertProblem(await api(t.token, '/v2/api-keys'), 403, 'insufficient_scope')
    assert.equal((await api(t.token, '/v2/inbox/conversations')).statusCode, 200)
  })

  it('a token dies with its session (sign-out), and a tampered token is refused', async () => {
    const { b, session } = await signedIn()
    const t = JSON.parse((await token(b, session.csrf_token, { workspace_id: h.a.workspaceId, mode: 'test' })).body)
    assert.equal((await api(t.token, '/sandbox/v2/workspaces/current')).statusCode, 200)
    const tampered = t.token.slice(0, -2) + (t.token.endsWith('A') ? 'BB' : 'AA')
    assertProblem(await api(tampered, '/sandbox/v2/workspaces/current'), 401, 'unauthorized')
    const logout = await b.submit('/logout', '/logout', {})
    assert.equal(logout.statusCode, 303)
    assertProblem(await api(t.token, '/sandbox/v2/workspaces/current'), 401, 'unauthorized')
  })
})
