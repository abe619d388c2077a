import assert from 'node:assert/strict'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, type TestApp } from '../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../workspaces/sign-in/sign-in.testkit.js'

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
    await memberWithPassword(h, 'adam@example.com', PASSWORD, { role: 'admin' })
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
  const api = (t: string, url: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' = 'GET', payload?: object) =>
    h.http().inject({ method, url, headers: { authorization: `Bearer ${t}` }, ...(payload ? { payload } : {}) })

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

  it('members act within their role: a member manages no one, an admin no owner', async () => {
    const tokenOf = async (email: string) => {
      const { b, session } = await signedIn(email)
      return JSON.parse((await token(b, session.csrf_token, { workspace_id: h.a.workspaceId, mode: 'live' })).body).token as string
    }
    const members = `/v2/workspaces/${h.a.workspaceId}/members`
    const all = JSON.parse((await h.request({ method: 'GET', url: `${members}?limit=100` })).body).data as { id: string; email: string; role: string }[]
    const idOf = (email: string) => all.find((m) => m.email === email)!.id
    const owner = idOf('owner@acme.example')
    const mia = await tokenOf('mia@example.com')
    const adam = await tokenOf('adam@example.com')

    // A member: not themselves to owner, not others, not the workspace; their own name, yes.
    assertProblem(await api(mia, `${members}/${idOf('mia@example.com')}`, 'PATCH', { role: 'owner' }), 403, 'insufficient_role')
    assertProblem(await api(mia, members, 'POST', { email: 'friend@example.com' }), 403, 'insufficient_role')
    assertProblem(await api(mia, `${members}/${idOf('adam@example.com')}`, 'DELETE'), 403, 'insufficient_role')
    assertProblem(await api(mia, `/v2/workspaces/${h.a.workspaceId}`, 'PATCH', { name: 'Mine now' }), 403, 'insufficient_role')
    assert.equal((await api(mia, `${members}/${idOf('mia@example.com')}`, 'PATCH', { name: 'Mia M.' })).statusCode, 200)
    assertProblem(await api(mia, `${members}/${owner}`, 'PATCH', { name: 'Renamed' }), 403, 'insufficient_role')

    // An admin: members and admins, not owners.
    assertProblem(await api(adam, members, 'POST', { email: 'boss@example.com', role: 'owner' }), 403, 'insufficient_role')
    assertProblem(await api(adam, `${members}/${idOf('adam@example.com')}`, 'PATCH', { role: 'owner' }), 403, 'insufficient_role')
    assertProblem(await api(adam, `${members}/${owner}`, 'DELETE'), 403, 'insufficient_role')
    const invited = await api(adam, members, 'POST', { email: 'helper@example.com', role: 'admin' })
    assert.equal(invited.statusCode, 201, invited.body)
    assert.equal((await api(adam, `${members}/${JSON.parse(invited.body).id}`, 'DELETE')).statusCode, 200)

    // Nothing changed that was refused; API keys keep the scope rules alone.
    const after = JSON.parse((await h.request({ method: 'GET', url: `${members}?limit=100` })).body).data as { email: string; role: string; name: string | null }[]
    assert.deepEqual(after.map((m) => `${m.email}:${m.role}`).sort(), ['adam@example.com:admin', 'mia@example.com:member', 'owner@acme.example:owner'])
    assert.equal(after.find((m) => m.email === 'mia@example.com')!.name, 'Mia M.')
    assert.equal(JSON.parse((await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}` })).body).name === 'Mine now', false)
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
