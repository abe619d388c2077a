import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, json, ok, type TestApp } from '../../../test/helpers.js'

/** The three deprecation headers, well-formed (RFC 9745 date, RFC 8594 HTTP-date, RFC 8288 links). */
function assertDeprecated(res: LightMyRequestResponse, successor: RegExp, sunset = 'Wed, 30 Jun 2027 00:00:00 GMT') {
  assert.match(String(res.headers.deprecation), /^@\d+$/, 'Deprecation')
  assert.equal(String(res.headers.deprecation), `@${Date.parse('2026-03-01T00:00:00Z') / 1000}`)
  assert.equal(res.headers.sunset, sunset)
  assert.ok(!Number.isNaN(Date.parse(String(res.headers.sunset))))
  const link = String(res.headers.link)
  assert.match(link, /<http[^>]+\/api\/v1\/migration>; rel="deprecation"; type="text\/html"/)
  const succ = /<([^>]+)>; rel="successor-version"/.exec(link)
  assert.ok(succ, link)
  assert.match(succ[1], successor)
}

const v1 = (h: TestApp, method: 'GET' | 'POST', url: string, payload?: object, key?: string | null) =>
  h.request({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}), ...(key !== undefined ? { key } : {}) })

describe('v1 compatibility', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
    h.app.kernel.jobs.start()
  })
  after(() => h.close())

  it('POST /api/v1/chat opens a conversation, then adds to it: v2 sees the same conversation and messages', async () => {
    const first = await v1(h, 'POST', '/chat', { user_id: 'crm-42', message: 'Hello, what does the pro plan cost?' })
    assert.equal(first.statusCode, 201, first.body)
    assertDeprecated(first, /\/inbox\/sendMessage$/)
    // The kernel's per-key rate limit covers v1 too (the limiter hooks every route).
    assert.match(String(first.headers.ratelimit), /^"default";r=\d+;t=\d+$/)
    const a = json(first)
    assert.equal(a.created, true)
    assert.equal(typeof a.chat.lead_score, 'number')
    assert.equal(a.chat.user_id, 'crm-42')
    const second = json(await v1(h, 'POST', '/chat', { user_id: 'crm-42', message: 'Thanks, we will get back to you.', sender: 'agent' }))
    assert.equal(second.created, false)
    assert.equal(second.chat.id, a.chat.id)
    // Another user gets their own chat.
    const other = json(await v1(h, 'POST', '/chat', { user_id: 'crm-43', message: 'Hi' }))
    assert.notEqual(other.chat.id, a.chat.id)

    const conv = await ok(h.request({ method: 'GET', url: `/v2/inbox/conversations/${a.chat.id}` }))
    assert.equal(conv.contact.external_id, 'crm-42')
    assert.equal(conv.lead_score.score, a.chat.lead_score)
    const msgs = await ok(h.request({ method: 'GET', url: `/v2/inbox/conversations/${a.chat.id}/messages?order=asc` }))
    assert.deepEqual(
      msgs.data.map((m: any) => [m.id, m.direction, m.content]),
      [
        [a.message_id, 'inbound', 'Hello, what does the pro plan cost?'],
        [second.message_id, 'outbound', 'Thanks, we will get back to you.'],
      ],
    )
    // An explicit chat_id pins the conversation; an unknown one is v2's 404, with the v1 headers.
    const pinned = json(await v1(h, 'POST', '/chat', { user_id: 'crm-43', chat_id: a.chat.id, message: 'Pinned' }))
    assert.equal(pinned.chat.id, a.chat.id)
    const missing = await v1(h, 'POST', '/chat', { user_id: 'x', chat_id: 'conv_01JD0000000000000000000000', message: 'Hi' })
    assert.equal(missing.statusCode, 404)
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/)
    assertDeprecated(missing, /\/inbox\/sendMessage$/)
    // v2's audit log names the key and the v1 endpoint, as it would a v2 call.
    const audit = await ok(h.request({ method: 'GET', url: `/v2/compliance/audit-log?target_id=${a.chat.id}&limit=50` }))
    const opened = audit.data.find((e: any) => e.events.includes('conversation.created'))
    assert.ok(opened, JSON.stringify(audit.data.map((e: any) => [e.action, e.events])))
    assert.equal(opened.actor.type, 'api_key')
    assert.match(opened.action, /^v1_/)
    assert.deepEqual(opened.fields.sort(), ['message', 'user_id'])
  })

  it('GET /api/v1/chats pages with offset and limit in v2 order, with the plain lead score', async () => {
    const ws = await h.key(['read', 'write'], { workspaceId: h.b.workspaceId })
    for (let i = 0; i < 7; i++) await ok(v1(h, 'POST', '/chat', { user_id: `u${i}`, message: `m${i}` }, ws), 201)
    const v2 = await ok(h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=100', key: ws }))
    const seen: string[] = []
    for (let offset = 0; ; offset += 3) {
      const res = await v1(h, 'GET', `/chats?offset=${offset}&limit=3`, undefined, ws)
      assert.equal(res.statusCode, 200, res.body)
      assertDeprecated(res, /\/inbox\/listConversations$/)
      const page = json(res)
      assert.equal(page.offset, offset)
      assert.equal(page.limit, 3)
      for (const c of page.data) assert.equal(typeof c.lead_score, 'number')
      seen.push(...page.data.map((c: any) => c.id))
      if (!page.has_more) break
    }
    assert.deepEqual(
      seen,
      v2.data.map((c: any) => c.id),
    )
    assert.equal(seen.length, 7)
    const deep = await v1(h, 'GET', '/chats?offset=10001', undefined, ws)
    assert.equal(deep.statusCode, 400)
    assertDeprecated(deep, /\/inbox\/listConversations$/)
    const bad = await v1(h, 'GET', '/chats?limit=0', undefined, ws)
    assert.equal(bad.statusCode, 422, bad.body)
    assertDeprecated(bad, /\/inbox\/listConversations$/)
  })

  it('POST /api/v1/bot/run starts an agent run that v2 reads', async () => {
    const agent = await ok(h.request({ method: 'POST', url: '/v2/agents', payload: { name: 'Helper' } }), 201)
    const res = await v1(h, 'POST', '/bot/run', { bot_id: agent.id, input: 'Summarise the account' })
    assert.equal(res.statusCode, 201, res.body)
    assertDeprecated(res, /\/agents\/createAgentRun$/)
    const run = json(res)
    assert.match(run.run_id, /^run_/)
    assert.equal(run.bot_id, agent.id)
    const v2 = await ok(h.request({ method: 'GET', url: `/v2/agents/${agent.id}/runs/${run.run_id}` }))
    assert.equal(v2.input.text, 'Summarise the account')
    const list = await ok(h.request({ method: 'GET', url: `/v2/agents/${agent.id}/runs` }))
    assert.ok(list.data.some((r: any) => r.id === run.run_id))
    const unknown = await v1(h, 'POST', '/bot/run', { bot_id: 'agt_01JD0000000000000000000000', input: 'x' })
    assert.equal(unknown.statusCode, 404)
    assertDeprecated(unknown, /\/agents\/createAgentRun$/)
  })

  it('authenticates with the same keys and scopes: sandbox keys on /sandbox/api/v1', async () => {
    const none = await v1(h, 'GET', '/chats', undefined, null)
    assert.equal(none.statusCode, 401)
    assertDeprecated(none, /\/inbox\/listConversations$/)
    const wrongEnv = await v1(h, 'GET', '/chats', undefined, h.a.test)
    assert.equal(wrongEnv.statusCode, 401)
    assert.equal(json(wrongEnv).code, 'wrong_environment')
    const readOnly = await h.key(['conversations:read'])
    const denied = await v1(h, 'POST', '/chat', { user_id: 'u', message: 'x' }, readOnly)
    assert.equal(denied.statusCode, 403)
    assert.equal(json(denied).code, 'insufficient_scope')
    assert.equal((await v1(h, 'GET', '/chats', undefined, readOnly)).statusCode, 200)
    const sandbox = await h.request({ method: 'POST', url: '/sandbox/api/v1/chat', payload: { user_id: 'sb', message: 'Hi from the sandbox' }, key: h.a.test })
    assert.equal(sandbox.statusCode, 201, sandbox.body)
    const id = json(sandbox).chat.id
    assert.equal((await h.request({ method: 'GET', url: `/sandbox/v2/inbox/conversations/${id}`, key: h.a.test })).statusCode, 200)
    assert.equal((await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })).statusCode, 404)
    const nowhere = await v1(h, 'GET', '/nowhere')
    assert.equal(nowhere.statusCode, 404)
    assertDeprecated(nowhere, /\/v2\/api-docs$/)
  })

  it('counts v1 calls under module v1 in the usage report', async () => {
    await ok(v1(h, 'GET', '/chats'))
    await h.app.kernel.requests.flush()
    const today = new Date().toISOString().slice(0, 10)
    const u = await ok(h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?from=${today}&to=${today}` }))
    assert.ok(u.by_module.v1 >= 5, JSON.stringify(u.by_module))
  })

  it('serves the migration guide', async () => {
    const res = await h.request({ method: 'GET', url: '/api/v1/migration', key: null })
    assert.equal(res.statusCode, 200)
    assert.match(res.body, /POST \/api\/v1\/chat/)
    assert.match(res.body, /Svc-Status-Signature/)
  })
})

describe('v1 after V1_SUNSET', () => {
  let h: TestApp
  before(async () => (h = await createTestApp({ env: { V1_SUNSET: '2020-01-01T00:00:00Z' } })))
  after(() => h.close())

  it('answers 410 pointing at the guide, still with the headers; the guide stays up', async () => {
    for (const [method, url] of [
      ['POST', '/api/v1/chat'],
      ['GET', '/api/v1/chats'],
      ['POST', '/sandbox/api/v1/bot/run'],
    ] as const) {
      const res = await h.request({ method, url, payload: method === 'POST' ? { user_id: 'u', message: 'x' } : undefined })
      assert.equal(res.statusCode, 410, `${url}: ${res.body}`)
      assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
      const p = json(res)
      assert.equal(p.code, 'v1_sunset')
      assert.match(p.detail, /\/api\/v1\/migration/)
      assertDeprecated(res, /api-docs/, 'Wed, 01 Jan 2020 00:00:00 GMT')
    }
    assert.equal((await h.request({ method: 'GET', url: '/api/v1/migration', key: null })).statusCode, 200)
  })
})
