import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { minRoleOf, roleAtLeast, type Role } from '../src/kernel/auth/roles.js'
import type { AnyRoute } from '../src/kernel/http/define-route.js'
import { MODULES } from '../src/modules/index.js'
import { authorizeUrl, consent, exchange, registerApp, responseParams } from '../src/modules/developer/oauth/oauth.testkit.js'
import { memberWithPassword, PageBrowser } from '../src/modules/workspaces/sign-in/sign-in.testkit.js'
import { assertProblem, createTestApp, json, type TestApp } from './helpers.js'

// The role matrix (kernel/auth/roles.ts, each route's `minRole`): what a member of each role may do through
// the API, whatever the dashboard shows. Driven by the route table, so a new operation is covered as it lands.
const routes = MODULES.flatMap((m) => m.routes).filter((r) => !r.public)

const DOC = new URL('../docs/api-conventions.md', import.meta.url)
const START = '<!-- roles:start -->'
const END = '<!-- roles:end -->'

/** The table docs/api-conventions.md "Roles" holds, rendered from the route table. */
function roleTable(): string {
  const rows = routes.map((r) => `| ${r.module} | \`${r.operationId}\` | \`${r.method} ${r.url}\` | \`${r.scope}\` | ${minRoleOf(r)} |`)
  return ['| Module | Operation | Method and path | Scope | Minimum role |', '|---|---|---|---|---|', ...rows].join('\n')
}

const placeholder = (url: string) => url.replace(/\{([a-z_]+)\}/g, (_, p: string) => (p === 'member_id' ? 'mem_0' : p === 'run_id' ? 'x_0' : 'x_00000000000000000000000000'))

describe('roles: the matrix as declared', () => {
  it('docs/api-conventions.md lists every operation with the minimum role the code enforces (UPDATE_ROLE_TABLE=1 rewrites it)', () => {
    const doc = readFileSync(DOC, 'utf8')
    const [head, rest] = doc.split(START)
    assert.ok(rest?.includes(END), `docs/api-conventions.md has no ${START} … ${END} section`)
    const [current, tail] = rest.split(END)
    const want = `\n${roleTable()}\n`
    if (process.env.UPDATE_ROLE_TABLE === '1' && current !== want) writeFileSync(DOC, `${head}${START}${want}${END}${tail}`)
    else assert.equal(current, want, 'the role table in docs/api-conventions.md is stale: run the test with UPDATE_ROLE_TABLE=1')
  })

  it('an admin-scope operation never asks less than admin of a member (the scope would refuse them anyway)', () => {
    for (const r of routes) if (r.scope === 'admin') assert.ok(roleAtLeast(minRoleOf(r), 'admin'), r.operationId)
  })

  it('the configuration a member must not change is admin-only', () => {
    const of = (id: string) => minRoleOf(routes.find((r) => r.operationId === id)!)
    for (const id of [
      'createWebhookEndpoint',
      'updateWebhookEndpoint',
      'deleteWebhookEndpoint',
      'deletePublicWebhookEndpoint',
      'rotateWebhookSecret',
      'updateRetentionPolicies',
      'createApiKey',
      'createOAuthApp',
      'updateBot',
      'updateAgent',
      'provisionVoiceNumber',
      'createDsarRequest',
      'createSandboxWorkspace',
      'createSdkGeneration',
      'updateWorkspace',
    ]) {
      assert.equal(of(id), 'admin', id)
    }
    for (const id of ['sendMessage', 'updateConversation', 'createLead', 'listConversations', 'searchKnowledge', 'createVoiceCall']) assert.equal(of(id), 'member', id)
  })
})

describe('roles: every operation, as a member of each role', () => {
  const PASSWORD = 'roles password 123'
  let h: TestApp
  const tokens = {} as Record<Role, string>
  before(async () => {
    h = await createTestApp()
    await h.app.services.signIn.setPassword('owner@acme.example', PASSWORD)
    await memberWithPassword(h, 'mia@example.com', PASSWORD, { role: 'member' })
    await memberWithPassword(h, 'adam@example.com', PASSWORD, { role: 'admin' })
    for (const [role, email] of [
      ['owner', 'owner@acme.example'],
      ['admin', 'adam@example.com'],
      ['member', 'mia@example.com'],
    ] as const)
      tokens[role] = await dashboardToken(h, email, PASSWORD)
  })
  after(() => h?.close())

  const api = (token: string, method: string, url: string, payload?: object | string) =>
    h.http().inject({
      method: method as 'GET',
      url,
      headers: { authorization: `Bearer ${token}`, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) },
      ...(payload !== undefined ? { payload } : {}),
    })

  /**
   * The answer to `role` calling `r`. Writes carry a body that is not JSON: the role is checked before the
   * body is read, so a permitted write stops at 400 malformed_json and nothing changes.
   */
  // An event stream that follows for ever (streamEvents) gets an unknown query parameter: refused (422) after the role check, so it ends.
  const call = (role: Role, r: AnyRoute) =>
    api(tokens[role], r.method, '/v2' + placeholder(r.url) + (r.sse && r.method === 'GET' ? '?unknown_parameter=1' : ''), r.method === 'GET' || r.method === 'DELETE' ? undefined : '{')

  for (const r of routes) {
    const need = minRoleOf(r)
    it(`${r.method} ${r.url} (${r.operationId}): ${need}`, async () => {
      for (const role of ['member', 'admin', 'owner'] as const) {
        const res = await call(role, r)
        if (roleAtLeast(role, need)) {
          // Not refused for who they are (anything else may happen with a made-up id or body).
          assert.ok(!(res.statusCode === 403 && ['insufficient_role', 'insufficient_scope'].includes(json(res).code)), `${role}: ${res.statusCode} ${res.body}`)
          assert.ok(res.statusCode < 500, `${role}: ${res.statusCode} ${res.body}`)
        } else if (r.scope === 'admin') {
          // A member's session holds `write`: the scope refuses first, as it does a key.
          assertProblem(res, 403, 'insufficient_scope')
        } else {
          assertProblem(res, 403, 'insufficient_role')
          assert.equal(json(res).required_role, need)
          assert.match(json(res).detail, new RegExp(`'${need}'.*'${role}'`))
        }
      }
    })
  }

  it('a member cannot delete a live webhook endpoint or change retention; an admin can', async () => {
    const made = await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://hooks.example.com/in' } })
    assert.equal(made.statusCode, 201, made.body)
    const id = json(made).id
    for (const url of [`/v2/webhooks/endpoints/${id}`, `/v2/webhook-endpoints/${id}`]) assertProblem(await api(tokens.member, 'DELETE', url), 403, 'insufficient_role')
    assertProblem(await api(tokens.member, 'PATCH', `/v2/webhooks/endpoints/${id}`, { status: 'disabled' }), 403, 'insufficient_role')
    assert.equal((await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${id}` })).statusCode, 200, 'still there')
    assert.equal((await api(tokens.member, 'GET', `/v2/webhooks/endpoints/${id}`)).statusCode, 200, 'a member still reads it')
    assert.ok((await api(tokens.admin, 'DELETE', `/v2/webhooks/endpoints/${id}`)).statusCode < 300)
    assertProblem(await h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${id}` }), 404)

    const before = json(await h.request({ method: 'GET', url: '/v2/compliance/retention' }))
    const refused = await api(tokens.member, 'PATCH', '/v2/compliance/retention', { policies: { messages: 1 } })
    assertProblem(refused, 403, 'insufficient_role')
    assert.equal(json(refused).required_role, 'admin')
    assert.deepEqual(json(await h.request({ method: 'GET', url: '/v2/compliance/retention' })), before, 'unchanged')
    const changed = await api(tokens.admin, 'PATCH', '/v2/compliance/retention', { policies: { messages: 30 } })
    assert.equal(changed.statusCode, 200, changed.body)
    assert.equal(json(await api(tokens.member, 'GET', '/v2/compliance/retention')).policies.messages, 30)
  })

  it('a member demoted while signed in loses admin operations at once; an API key is bound by its scopes alone', async () => {
    const all = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=100` })).data as { id: string; email: string }[]
    const adam = all.find((m) => m.email === 'adam@example.com')!.id
    const retention = () => api(tokens.admin, 'PATCH', '/v2/compliance/retention', { policies: { messages: 31 } })
    assert.equal((await retention()).statusCode, 200)
    assert.equal((await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}/members/${adam}`, payload: { role: 'member' } })).statusCode, 200)
    const res = await retention()
    // Demoted: the session's scopes shrink to `write`, and the role refuses what `write` would still allow.
    assertProblem(res, 403, 'insufficient_role')
    const key = await h.key(['write'])
    assert.equal((await h.request({ method: 'PATCH', url: '/v2/compliance/retention', payload: { policies: { messages: 32 } }, key })).statusCode, 200)
    await h.request({ method: 'PATCH', url: `/v2/workspaces/${h.a.workspaceId}/members/${adam}`, payload: { role: 'admin' } })
  })

  it('an OAuth app acts within the role of the member who authorized it', async () => {
    const app = await registerApp(h)
    const grantBy = async (email: string) => {
      const b = new PageBrowser(h)
      assert.equal((await b.signIn(email, PASSWORD)).statusCode, 303)
      const code = responseParams(await consent(b, authorizeUrl(app, { scope: 'write' }), { tenant: `${h.a.workspaceId}:live` })).get('code')!
      const res = await exchange(h, app, code)
      assert.equal(res.statusCode, 200, res.body)
      return json(res).access_token as string
    }
    const byMember = await grantBy('mia@example.com')
    const byAdmin = await grantBy('adam@example.com')
    const id = json(await h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://hooks.example.com/oauth' } })).id
    assert.equal((await api(byMember, 'GET', '/v2/inbox/conversations')).statusCode, 200)
    const refused = await api(byMember, 'DELETE', `/v2/webhooks/endpoints/${id}`)
    assertProblem(refused, 403, 'insufficient_role')
    assert.equal(json(refused).required_role, 'admin')
    assertProblem(await api(byMember, 'PATCH', '/v2/compliance/retention', { policies: { messages: 40 } }), 403, 'insufficient_role')
    assert.ok((await api(byAdmin, 'DELETE', `/v2/webhooks/endpoints/${id}`)).statusCode < 300)
  })

  it('the OpenAPI document and the reference page name each operation’s minimum role', async () => {
    const doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json' }))
    for (const r of routes) {
      const op = doc.paths[r.url][r.method.toLowerCase()]
      assert.equal(op['x-min-role'], minRoleOf(r), r.operationId)
      assert.match(op.description, new RegExp(`Minimum member role: \`${minRoleOf(r)}\``), r.operationId)
    }
    const page = await h.request({ method: 'GET', url: '/v2/api-docs/compliance/updateRetentionPolicies' })
    assert.match(page.body, /minimum member role: <code>admin<\/code>/)
  })
})

/** A dashboard session token (svc_dash_…) for a member of workspace A, live. */
async function dashboardToken(h: TestApp, email: string, password: string): Promise<string> {
  const b = new PageBrowser(h)
  const signIn = await b.signIn(email, password, '/dashboard')
  assert.equal(signIn.statusCode, 303, signIn.body)
  const session = json(await b.get('/dashboard/session'))
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
  const res = await h
    .http()
    .inject({ method: 'POST', url: '/dashboard/session/tokens', headers: { cookie, 'x-csrf-token': session.csrf_token }, payload: { workspace_id: h.a.workspaceId, mode: 'live' } })
  assert.equal(res.statusCode, 201, res.body)
  return json(res).token
}
