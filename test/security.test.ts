import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { toFastifyPath } from '../src/kernel/http/route-options.js'
import { MODULES } from '../src/modules/index.js'
import { FIXTURES } from './fixtures.js'
import { createTestApp, json, type TestApp } from './helpers.js'
import { memberSession } from '../src/modules/inbox/inbox.testkit.js'

// One test driven by the route table: every operation, on both base URLs, rejects a missing key,
// a key of the wrong environment, a key without the scope, and hides another workspace's resources.
const routes = MODULES.flatMap((m) => m.routes)

function fill(url: string, params: Record<string, string>): string {
  return url.replace(/\{([a-z_]+)\}/g, (_, p: string) => params[p] ?? `missing_${p}`)
}
const placeholder = (url: string) => fill(url, { id: 'x_00000000000000000000000000', run_id: 'x_0', member_id: 'mem_0', token: 'tok_' + 'a'.repeat(22) })

/** A granular scope that does not grant `required`. */
function unrelatedScope(required: string): string {
  return required.startsWith('leads') ? 'bots:read' : 'leads:read'
}

describe('security: every route of the route table', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  for (const r of routes) {
    const label = `${r.method} ${r.url} (${r.operationId})`
    const payload = r.method === 'GET' || r.method === 'DELETE' ? undefined : {}

    it(`${label}: 401 without a key, with WWW-Authenticate and X-Request-ID`, { skip: r.public ? 'public operation' : false }, async () => {
      for (const base of ['/v2', '/sandbox/v2']) {
        const res = await h.request({ method: r.method, url: base + placeholder(r.url), key: null, payload })
        assert.equal(res.statusCode, 401, `${base}: ${res.body}`)
        assert.match(String(res.headers['www-authenticate']), /^Bearer/)
        assert.ok(res.headers['x-request-id'])
        assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
        assert.equal(json(res).code, 'unauthorized')
      }
    })

    it(`${label}: 401 for a revoked-looking unknown key and for the wrong environment`, { skip: r.public ? 'public operation' : false }, async () => {
      const unknown = await h.request({ method: r.method, url: '/v2' + placeholder(r.url), key: 'svc_live_' + 'x'.repeat(43), payload })
      assert.equal(unknown.statusCode, 401)
      const testOnLive = await h.request({ method: r.method, url: '/v2' + placeholder(r.url), key: h.a.test, payload })
      assert.equal(testOnLive.statusCode, 401)
      assert.equal(json(testOnLive).code, 'wrong_environment')
      assert.match(json(testOnLive).detail, /sandbox\/v2/)
      const liveOnSandbox = await h.request({ method: r.method, url: '/sandbox/v2' + placeholder(r.url), key: h.a.live, payload })
      assert.equal(liveOnSandbox.statusCode, 401)
      assert.equal(json(liveOnSandbox).code, 'wrong_environment')
    })

    it(`${label}: 403 naming the scope '${r.scope}' for a key without it`, { skip: r.public ? 'public operation' : false }, async () => {
      // A route any read scope admits (the event stream): only a key with no scope at all lacks them all.
      const key = await h.key(r.anyScope ? [] : [unrelatedScope(r.scope)])
      const res = await h.request({ method: r.method, url: '/v2' + placeholder(r.url), key, payload })
      assert.equal(res.statusCode, 403, res.body)
      assert.equal(json(res).code, 'insufficient_scope')
      assert.equal(json(res).required_scope, r.scope)
      assert.match(json(res).detail, new RegExp(r.scope))
    })

    if (/\{(id|run_id|member_id)\}/.test(r.url) && !r.public) {
      it(`${label}: another workspace's or mode's resource is 404`, async () => {
        const fixture = FIXTURES[r.operationId]
        assert.ok(fixture, `test/fixtures.ts has no fixture for ${r.operationId}`)
        const made = await fixture(h)
        const { params, body } =
          'params' in made && typeof made.params === 'object' ? (made as { params: Record<string, string>; body?: unknown }) : { params: made as Record<string, string>, body: payload }
        const url = fill(r.url, params)
        // A person's operation (markConversationRead) is driven with a member's dashboard token of workspace A.
        const person = (r.errors ?? []).includes('member_credential_required') && r.method !== 'GET' ? (await memberSession(h, `sec-${r.operationId.toLowerCase()}@acme.example`)).token : null
        const own = await h.request({ method: r.method, url: '/v2' + url, key: person ?? h.a.live, payload: body as object })
        assert.ok(own.statusCode < 300, `the fixture itself must work for workspace A: ${own.statusCode} ${own.body}`)
        const other = await h.request({ method: r.method, url: '/v2' + url, key: h.b.live, payload: body as object })
        assert.equal(other.statusCode, 404, `workspace B got ${other.statusCode}: ${other.body}`)
        assert.match(String(other.headers['content-type']), /^application\/problem\+json/)
        // A workspace itself is shared by both modes; everything inside it belongs to one mode.
        if (!r.url.startsWith('/workspaces/{id}') || r.url.includes('{member_id}')) {
          const sandbox = await h.request({ method: r.method, url: '/sandbox/v2' + url, key: h.a.test, payload: body as object })
          assert.equal(sandbox.statusCode, 404, `sandbox got ${sandbox.statusCode}: ${sandbox.body}`)
        }
      })
    }
  }

  it('covers every route with a Fastify path', () => {
    assert.ok(routes.length >= 10)
    for (const r of routes) assert.ok(toFastifyPath(r.url).startsWith('/'))
  })
})
