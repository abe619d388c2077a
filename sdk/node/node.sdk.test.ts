// The node client (@svc/client) against the live server: every operation has a method, CRUD in every module,
// pagination, retries through the proxy (same Idempotency-Key; Retry-After honoured), error mapping, webhook
// verification, SSE, the version pin and User-Agent, and the built ESM and CJS packages. In-process: the
// TypeScript source is imported directly (tsx). SQLite only (TEST_DB=postgres skips it).
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { startLiveServer, type LiveServer } from '../test-support/live-server.js'
import {
  APIError,
  AuthenticationError,
  ConnectionError,
  NotFoundError,
  Page,
  SignatureVerificationError,
  Svc,
  ValidationError,
  Webhook,
  constructEvent,
  parseSSE,
  signWebhook,
  type ServerSentEvent,
  type WebhookEvent,
} from './src/index.js'

const HERE = dirname(fileURLToPath(import.meta.url))
const skip = process.env.TEST_DB === 'postgres' ? 'the SDK suites run once, on SQLite (TEST_DB=postgres)' : false

interface FixtureOp {
  operation_id: string
  namespace: string[]
  method_name: string
  http_method: string
  path: string
  paginated: boolean
  streaming: boolean
  file_media_type: string | null
}

interface ProxyState {
  mode: string
  requests: { method: string; path: string; idempotency_key: string | null; dropped: boolean }[]
}

const unique = (p: string) => `${p}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`

describe('node client (@svc/client)', { skip }, () => {
  let live: LiveServer
  let env: Record<string, string>
  let svc: Svc

  const proxy = async (mode?: string): Promise<ProxyState> => {
    const r = await fetch(env.SVC_PROXY_CONTROL_URL, mode ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode }) } : {})
    return (await r.json()) as ProxyState
  }

  before(async () => {
    live = await startLiveServer()
    env = live.env
    svc = new Svc({ apiKey: env.SVC_API_KEY, baseUrl: env.SVC_BASE_URL, maxRetries: 0 })
  })
  after(async () => {
    await live?.close()
  })

  it('has a method for every operation of the document', () => {
    const ops = JSON.parse(readFileSync(env.SVC_OPERATIONS_FIXTURE, 'utf8')) as FixtureOp[]
    assert.ok(ops.length > 0)
    let found = 0
    const missing: string[] = []
    for (const op of ops) {
      let node: any = svc
      for (const seg of op.namespace) node = node?.[seg]
      if (typeof node?.[op.method_name] === 'function') found++
      else missing.push(`${[...op.namespace, op.method_name].join('.')} (${op.operation_id})`)
    }
    assert.deepEqual(missing, [])
    assert.equal(found, ops.length)
    assert.equal(Svc.VERSION, '2.4.0')
    // The callable namespace: agents.dryRun(id, …) and agents.dryRun.stream(id, …).
    assert.equal(typeof svc.agents.dryRun, 'function')
    assert.equal(typeof svc.agents.dryRun.stream, 'function')
  })

  it('creates, reads, updates and lists in every module', { timeout: 60_000 }, async () => {
    // root and health
    const root = await svc.getApiRoot()
    assert.ok(root)
    const health = await svc.health.get()
    assert.equal(health.object, 'health')

    // workspaces
    const ws = await svc.workspaces.current.get()
    assert.equal(ws.id, env.SVC_WORKSPACE_ID)
    const renamed = await svc.workspaces.update(ws.id, { name: 'Node SDK workspace' })
    assert.equal(renamed.name, 'Node SDK workspace')
    assert.equal((await svc.workspaces.get(ws.id)).name, 'Node SDK workspace')

    // inbox
    const conv = await svc.inbox.conversations.create({ channel: 'api', subject: 'from node' })
    assert.equal(conv.object, 'conversation')
    assert.equal((await svc.inbox.conversations.get(conv.id)).id, conv.id)
    const updated = await svc.inbox.conversations.update(conv.id, { subject: 'node, updated' })
    assert.equal(updated.subject, 'node, updated')
    const convs = await svc.inbox.conversations.list({ limit: 100 })
    assert.ok(convs instanceof Page)
    assert.ok(convs.data.some((c) => c.id === conv.id))
    const msg = await svc.inbox.conversations.messages.send(conv.id, { content: 'Hello from the node client' })
    assert.equal(msg.content, 'Hello from the node client')
    const msgs = await svc.inbox.conversations.messages.list(conv.id)
    assert.ok(msgs.data.some((m) => m.id === msg.id))
    const tag = await svc.inbox.tags.create({ name: unique('node') })
    assert.ok((await svc.inbox.tags.list({ limit: 100 })).data.some((t) => t.id === tag.id))

    // webhooks endpoints
    const ep = await svc.webhooks.endpoints.create({ url: 'https://example.com/hook', event_types: ['lead.created'] })
    assert.ok(ep.secret)
    assert.equal((await svc.webhooks.endpoints.get(ep.id)).url, 'https://example.com/hook')
    assert.equal((await svc.webhooks.endpoints.update(ep.id, { description: 'node sdk' })).description, 'node sdk')
    assert.ok((await svc.webhooks.endpoints.list({ limit: 100 })).data.some((e) => e.id === ep.id))
    const deleted = await svc.webhooks.endpoints.delete(ep.id)
    assert.equal(deleted.id, ep.id)
    await assert.rejects(svc.webhooks.endpoints.get(ep.id), NotFoundError)

    // leads
    const email = `${unique('lead')}@example.com`
    const lead = await svc.leads.create({ name: 'Ada Node', email })
    assert.equal(lead.email, email)
    assert.equal((await svc.leads.get(lead.id)).id, lead.id)
    assert.equal((await svc.leads.update(lead.id, { company: 'Analytical Engines' })).company, 'Analytical Engines')
    assert.deepEqual(
      (await svc.leads.list({ email })).data.map((l) => l.id),
      [lead.id],
    )

    // knowledge
    const kb = await svc.knowledge.bases.create({ name: 'Node SDK base' })
    assert.equal((await svc.knowledge.bases.get(kb.id)).name, 'Node SDK base')
    assert.equal((await svc.knowledge.bases.update(kb.id, { description: 'for tests' })).description, 'for tests')
    assert.ok((await svc.knowledge.bases.list({ limit: 100 })).data.some((b) => b.id === kb.id))
    const doc = await svc.knowledge.bases.documents.upload(kb.id, { title: 'Refunds', text: 'Refunds are processed within 5 business days of the request.' })
    assert.equal((await svc.knowledge.documents.get(doc.id)).id, doc.id)
    const search = await svc.knowledge.search({ query: 'refunds', knowledge_base_ids: [kb.id] })
    assert.equal(search.object, 'knowledge_search')

    // bots
    const bot = await svc.bots.create({ name: 'Node bot' })
    assert.equal((await svc.bots.get(bot.id)).name, 'Node bot')
    assert.equal((await svc.bots.update(bot.id, { description: 'node' })).description, 'node')
    assert.ok((await svc.bots.list({ limit: 100 })).data.some((b) => b.id === bot.id))

    // agents
    const agent = await svc.agents.create({ name: 'Node agent', instructions: 'Answer briefly.' })
    assert.equal((await svc.agents.get(agent.id)).name, 'Node agent')
    assert.equal((await svc.agents.update(agent.id, { description: 'node' })).description, 'node')
    assert.ok((await svc.agents.list({ limit: 100 })).data.some((a) => a.id === agent.id))

    // voice
    assert.ok(Array.isArray((await svc.voice.numbers.list()).data))
    assert.ok(Array.isArray((await svc.voice.calls.list()).data))

    // compliance
    const retention = await svc.compliance.retention.get()
    assert.equal(retention.object, 'retention_policies')
    const redaction = await svc.compliance.piiRedaction.redact({ text: 'Mail me at ada@example.com' })
    assert.equal(redaction.object, 'pii_redaction')
    assert.ok(!redaction.items[0].redacted.includes('ada@example.com'))
    const audit = await svc.compliance.auditLog.list({ limit: 5 })
    assert.ok(audit.data.length > 0)

    // events
    const events = await svc.events.list({ limit: 5 })
    assert.ok(Array.isArray(events.data))

    // the raw response: lastResponse and withResponse()
    assert.equal(svc.lastResponse?.status, 200)
    assert.match(svc.lastResponse?.requestId ?? '', /^req_/)
    const { data, response } = await svc.leads.get(lead.id).withResponse()
    assert.equal(data.id, lead.id)
    assert.equal(response.status, 200)
    assert.match(response.requestId ?? '', /^req_/)
    assert.equal(response.headers.get('content-type')?.split(';')[0], 'application/json')

    // the sandbox: a test key with only the origin gets /sandbox/v2
    const origin = new URL(env.SVC_BASE_URL).origin
    const sandbox = new Svc({ apiKey: env.SVC_TEST_KEY, baseUrl: origin, maxRetries: 0 })
    assert.equal(sandbox.baseUrl, `${origin}/sandbox/v2`)
    assert.equal(new Svc({ apiKey: env.SVC_TEST_KEY, baseUrl: env.SVC_SANDBOX_URL }).baseUrl, env.SVC_SANDBOX_URL)
    const sandboxLead = await sandbox.leads.create({ name: 'Sandbox lead', email: `${unique('sbx')}@example.com` })
    assert.ok(sandbox.lastResponse?.url.includes('/sandbox/v2/leads'))
    await assert.rejects(svc.leads.get(sandboxLead.id), NotFoundError)
    assert.equal((await sandbox.leads.get(sandboxLead.id)).id, sandboxLead.id)
  })

  it('iterates every item of every page', { timeout: 30_000 }, async () => {
    const prefix = unique('page')
    const created = new Set<string>()
    for (let i = 0; i < 5; i++) created.add((await svc.inbox.tags.create({ name: `${prefix}-${i}` })).id)

    // Count the requests the iteration makes.
    const seen: string[] = []
    const counting = new Svc({
      apiKey: env.SVC_API_KEY,
      baseUrl: env.SVC_BASE_URL,
      fetch: (input, init) => {
        seen.push(String(input))
        return fetch(input, init)
      },
    })
    const ids: string[] = []
    for await (const tag of counting.inbox.tags.list({ limit: 2 })) ids.push(tag.id)
    const mine = ids.filter((id) => created.has(id))
    assert.equal(mine.length, 5, 'each created tag seen')
    assert.equal(new Set(ids).size, ids.length, 'no tag seen twice')
    assert.ok(seen.length > 1, 'more than one page fetched')
    assert.ok(
      seen.every((u) => new URL(u).searchParams.get('limit') === '2'),
      'the original params are kept',
    )
    assert.ok(
      seen.slice(1).every((u) => new URL(u).searchParams.get('cursor')),
      'later pages pass the cursor',
    )

    // Page by page.
    let pages = 0
    let count = 0
    const first = await svc.inbox.tags.list({ limit: 2 })
    for await (const page of first.iterPages()) {
      pages++
      count += page.data.length
    }
    assert.ok(pages >= 3)
    assert.equal(count, ids.length)
    assert.equal((await svc.inbox.tags.list({ limit: 2 }).toArray()).length, ids.length)
  })

  it('retries a dropped connection with the same Idempotency-Key, and the effect happens once', { timeout: 30_000 }, async () => {
    const client = new Svc({ apiKey: env.SVC_API_KEY, baseUrl: env.SVC_PROXY_BASE_URL, maxRetries: 2 })
    const before = (await proxy()).requests.length
    await proxy('drop-next')
    const email = `${unique('retry')}@example.com`
    const lead = await client.leads.create({ name: 'Retried', email })
    assert.equal(lead.email, email)
    const requests = (await proxy()).requests.slice(before).filter((r) => r.method === 'POST' && r.path === '/v2/leads')
    assert.equal(requests.length, 2, JSON.stringify(requests))
    assert.equal(requests[0].dropped, true)
    assert.equal(requests[1].dropped, false)
    assert.ok(requests[0].idempotency_key)
    assert.equal(requests[0].idempotency_key, requests[1].idempotency_key)
    assert.match(requests[0].idempotency_key ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    const listed = await svc.leads.list({ email })
    assert.equal(listed.data.length, 1)
    assert.equal(listed.data[0].id, lead.id)

    // Without retries the dropped connection is a ConnectionError.
    await proxy('drop-next')
    await assert.rejects(client.leads.create({ name: 'Not retried', email: `${unique('noretry')}@example.com` }, { maxRetries: 0 }), ConnectionError)
  })

  it('honours Retry-After on 429', { timeout: 30_000 }, async () => {
    const client = new Svc({ apiKey: env.SVC_API_KEY, baseUrl: env.SVC_PROXY_BASE_URL, maxRetries: 2 })
    const before = (await proxy()).requests.length
    await proxy('429-next')
    const started = performance.now()
    const page = await client.leads.list({ limit: 1 })
    const elapsed = performance.now() - started
    assert.ok(Array.isArray(page.data))
    assert.ok(elapsed >= 900, `waited ${elapsed} ms`)
    assert.equal((await proxy()).requests.length - before, 2)

    // With no retries left the 429 is a RateLimitError carrying Retry-After.
    await proxy('429-next')
    await assert.rejects(client.leads.list({ limit: 1 }, { maxRetries: 0 }), (err: any) => err.status === 429 && err.code === 'rate_limited' && err.retryAfter === 1)
  })

  it('maps errors to classes with status, code, request id and field errors', { timeout: 30_000 }, async () => {
    const notFound = await svc.leads.get('lead_doesnotexist').then(
      () => assert.fail('expected a 404'),
      (e: unknown) => e,
    )
    assert.ok(notFound instanceof NotFoundError)
    assert.ok(notFound instanceof APIError)
    assert.equal(notFound.status, 404)
    assert.ok(notFound.code)
    assert.match(notFound.requestId ?? '', /^req_/)
    assert.ok(notFound.detail)
    assert.equal(notFound.headers.get('content-type')?.split(';')[0], 'application/problem+json')

    const invalid = await svc.leads.create({ email: 'not an email', tags: 'x' } as any).then(
      () => assert.fail('expected a 422'),
      (e: unknown) => e,
    )
    assert.ok(invalid instanceof ValidationError, String(invalid))
    assert.equal(invalid.status, 422)
    assert.ok(invalid.errors.length > 0)
    assert.ok(invalid.errors.every((e) => typeof e.pointer === 'string' && typeof e.detail === 'string'))

    const bad = new Svc({ apiKey: 'svc_live_nope', baseUrl: env.SVC_BASE_URL, maxRetries: 0 })
    await assert.rejects(bad.leads.list(), (e: unknown) => e instanceof AuthenticationError && e.status === 401 && /^req_/.test(e.requestId ?? ''))
    await assert.rejects(svc.leads.get(''), TypeError)
  })

  it('retries 5xx and timeouts but not other 4xx (a scripted fetch)', { timeout: 30_000 }, async () => {
    const scripted = (answers: (() => Response | Promise<Response>)[]) => {
      const calls: RequestInit[] = []
      const f = async (_input: string | URL | Request, init?: RequestInit) => {
        calls.push(init ?? {})
        const next = answers.shift()
        if (!next) throw new Error('no more answers')
        return next()
      }
      return { calls, fetch: f as typeof fetch }
    }
    const problem = (status: number, code: string) => () =>
      new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: code, code, request_id: 'req_scripted' }), { status, headers: { 'content-type': 'application/problem+json' } })
    const okLead = () => new Response(JSON.stringify({ id: 'lead_1', object: 'lead' }), { status: 200, headers: { 'content-type': 'application/json', 'x-request-id': 'req_ok' } })

    const s503 = scripted([problem(503, 'unavailable'), problem(500, 'internal'), okLead])
    const c1 = new Svc({ apiKey: 'svc_live_x', baseUrl: 'http://sdk.invalid', fetch: s503.fetch, maxRetries: 2 })
    const lead = await c1.leads.update('lead_1', { name: 'x' })
    assert.equal(lead.id, 'lead_1')
    assert.equal(s503.calls.length, 3)
    const keys = s503.calls.map((c) => new Headers(c.headers).get('idempotency-key'))
    assert.ok(keys[0] && keys.every((k) => k === keys[0]), 'one Idempotency-Key for every attempt')

    const s409 = scripted([problem(409, 'idempotency_key_in_use'), okLead])
    await assert.rejects(new Svc({ apiKey: 'svc_live_x', baseUrl: 'http://sdk.invalid', fetch: s409.fetch }).leads.create({ name: 'x' }), (e: unknown) => e instanceof APIError && e.status === 409)
    assert.equal(s409.calls.length, 1)

    const hang = () => new Promise<Response>(() => {})
    const slow = scripted([hang, hang, hang])
    const wrapped = ((input: string | URL | Request, init?: RequestInit) =>
      Promise.race([slow.fetch(input, init), new Promise<Response>((_, rej) => init?.signal?.addEventListener('abort', () => rej(init.signal?.reason)))])) as typeof fetch
    const c3 = new Svc({ apiKey: 'svc_live_x', baseUrl: 'http://sdk.invalid', fetch: wrapped, timeout: 50, maxRetries: 1 })
    await assert.rejects(c3.health.get(), (e: unknown) => e instanceof ConnectionError && e.name === 'TimeoutError')
    assert.equal(slow.calls.length, 2)
  })

  it('verifies webhooks with either header set', () => {
    const fx = JSON.parse(readFileSync(env.SVC_WEBHOOK_FIXTURE, 'utf8')) as { secret: string; body: string; headers: Record<string, string>; tolerance_seconds: number }
    const event = Svc.webhooks.constructEvent(fx.body, fx.headers, fx.secret)
    assert.equal(event.type, 'webhook.test')
    assert.equal(svc.webhooks.constructEvent(Buffer.from(fx.body), new Headers(fx.headers), fx.secret).type, 'webhook.test')
    const pick = (...names: string[]) => Object.fromEntries(Object.entries(fx.headers).filter(([k]) => names.includes(k.toLowerCase())))
    const standard = pick('webhook-id', 'webhook-timestamp', 'webhook-signature')
    const status = pick('svc-status-signature')
    assert.equal(Object.keys(standard).length, 3)
    assert.equal(Object.keys(status).length, 1)
    const e1 = constructEvent<WebhookEvent>(fx.body, standard, fx.secret)
    assert.equal(e1.type, 'webhook.test')
    if (e1.type === 'webhook.test') assert.ok(e1.data.object.endpoint_id)
    assert.equal(Webhook.constructEvent(fx.body, status, fx.secret).type, 'webhook.test')
    // Header names in any case.
    assert.equal(constructEvent(fx.body, Object.fromEntries(Object.entries(status).map(([k, v]) => [k.toUpperCase(), v])), fx.secret).type, 'webhook.test')

    const altered = Buffer.from(fx.body)
    altered[altered.length - 2] ^= 1
    for (const h of [fx.headers, standard, status]) {
      assert.throws(() => constructEvent(altered, h, fx.secret), SignatureVerificationError)
      assert.throws(() => constructEvent(fx.body, h, `${fx.secret}x`), SignatureVerificationError)
      assert.throws(() => constructEvent(fx.body, h, 'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='), SignatureVerificationError)
    }
    const t = Number(standard['webhook-timestamp'] ?? Object.entries(fx.headers).find(([k]) => k.toLowerCase() === 'webhook-timestamp')?.[1])
    assert.ok(t > 0)
    for (const h of [fx.headers, standard, status]) {
      assert.throws(() => constructEvent(fx.body, h, fx.secret, { now: t + 301 }), SignatureVerificationError)
      assert.throws(() => constructEvent(fx.body, h, fx.secret, { now: t - 301 }), SignatureVerificationError)
      assert.equal(constructEvent(fx.body, h, fx.secret, { now: t + 299 }).type, 'webhook.test')
      assert.equal(constructEvent(fx.body, h, fx.secret, { now: new Date((t + 600) * 1000), tolerance: 601 }).type, 'webhook.test')
    }
    assert.throws(() => constructEvent(fx.body, {}, fx.secret), SignatureVerificationError)
    // sign() makes headers that verify, both sets.
    const signed = signWebhook(fx.body, fx.secret)
    assert.equal(constructEvent(fx.body, { 'svc-status-signature': signed['svc-status-signature'] }, fx.secret).type, 'webhook.test')
    const { 'svc-status-signature': _, ...std } = signed
    assert.equal(constructEvent(fx.body, std, fx.secret).type, 'webhook.test')
  })

  it('streams the dry-run of an agent as Server-Sent Events', { timeout: 60_000 }, async () => {
    const agent = await svc.agents.create({ name: 'Node stream agent', instructions: 'Answer briefly.' })
    const events: ServerSentEvent[] = []
    for await (const ev of svc.agents.dryRun.stream(agent.id, { input: 'Hello there' })) events.push(ev)
    assert.ok(events.length >= 1)
    const last = events[events.length - 1]
    assert.equal(last.event, 'completed')
    const dryRun = (last.data as { dry_run: { object: string; agent_id: string } }).dry_run
    assert.equal(dryRun.object, 'agent_dry_run')
    assert.equal(dryRun.agent_id, agent.id)
    assert.ok(events.every((e) => typeof e.id === 'string' && e.id.length > 0))

    // The same operation, not streamed: the namespace is callable.
    const plain = await svc.agents.dryRun(agent.id, { input: 'Hello there' })
    assert.equal(plain.object, 'agent_dry_run')

    // An unknown agent fails before the stream opens.
    await assert.rejects(async () => {
      for await (const _ of svc.agents.dryRun.stream('agt_nope', { input: 'x' })) void _
    }, NotFoundError)

    // The parser itself: multi-line data, comments, CRLF split across chunks, ids, a default event name.
    const chunks = [': ping\r', '\nevent: a\r\ndata: {"x":', '1}\n\ndata: line1\ndata: line2\nid: 7\n\n', 'data: tail without blank line']
    const parsed: { event: string; data: string; id: string | null }[] = []
    const body = (async function* () {
      for (const c of chunks) yield new TextEncoder().encode(c)
    })()
    for await (const e of parseSSE(body)) parsed.push(e)
    assert.deepEqual(parsed, [
      { event: 'a', data: '{"x":1}', id: null },
      { event: 'message', data: 'line1\nline2', id: '7' },
    ])
  })

  it('sends Svc-Api-Version (pinnable) and a User-Agent', { timeout: 30_000 }, async () => {
    const sent: Headers[] = []
    const capture = (extra: object = {}) =>
      new Svc({
        apiKey: env.SVC_API_KEY,
        baseUrl: env.SVC_BASE_URL,
        ...extra,
        fetch: (input, init) => {
          sent.push(new Headers(init?.headers))
          return fetch(input, init)
        },
      })
    const client = capture()
    const conv = await client.inbox.conversations.create({ channel: 'api', subject: 'versions' })
    assert.equal(sent[0].get('svc-api-version'), '2.4.0')
    assert.match(sent[0].get('user-agent') ?? '', /^svc-node\/2\.4\.0 \(node \d+\.\d+\.\d+\)$/)
    assert.equal(sent[0].get('authorization'), `Bearer ${env.SVC_API_KEY}`)
    assert.match(sent[0].get('idempotency-key') ?? '', /^[0-9a-f-]{36}$/)
    assert.equal(client.lastResponse?.headers.get('svc-api-version'), '2.4.0')
    assert.equal(typeof conv.lead_score, 'object', 'the 2.4.0 shape: { score, factors }')

    // Pinned to 2.3.4 (per client, and per request): the server answers the older shape.
    const pinned = capture({ apiVersion: '2.3.4' })
    const old = await pinned.inbox.conversations.get(conv.id)
    assert.equal(sent[sent.length - 1].get('svc-api-version'), '2.3.4')
    assert.equal(typeof old.lead_score, 'number', 'before 2.4.0 lead_score is a plain number')
    const perRequest = await client.inbox.conversations.get(conv.id, {}, { apiVersion: '2.3.4', headers: { 'x-extra': 'yes' } })
    assert.equal(typeof perRequest.lead_score, 'number')
    assert.equal(sent[sent.length - 1].get('x-extra'), 'yes')
    // A given Idempotency-Key is sent as is.
    await client.inbox.tags.create({ name: unique('idem') }, { idempotencyKey: 'node-sdk-key-1' })
    assert.equal(sent[sent.length - 1].get('idempotency-key'), 'node-sdk-key-1')

    // The server saw the User-Agent: the audit log records it for the write.
    const entries = await svc.compliance.auditLog.list({ limit: 50 })
    const mine = entries.data.find((e) => e.target?.id === conv.id || JSON.stringify(e).includes(conv.id))
    assert.ok(mine, 'the conversation creation is audited')
    assert.match(mine.user_agent ?? '', /^svc-node\/2\.4\.0 \(node /)
  })

  it('builds ESM and CJS packages that import, require and call', { timeout: 120_000 }, async () => {
    execFileSync(process.execPath, [join(HERE, 'scripts/build.mjs')], { cwd: HERE, stdio: 'pipe', timeout: 110_000 })
    // The package's own name resolves through its "exports" (self-reference): require → CJS, import → ESM.
    const name = '@svc/client'
    const require = createRequire(import.meta.url)
    const cjs = require(name)
    // Resolved from this folder as `import` would (tsImport takes the parent URL; a bundled test's own location differs).
    const esm = await tsImport(name, import.meta.url)
    assert.match(require.resolve(name), /dist[\\/]cjs[\\/]index\.js$/)
    assert.notEqual(cjs.Svc, esm.Svc)
    for (const mod of [cjs, esm]) {
      const client = new mod.Svc({ apiKey: env.SVC_API_KEY, baseUrl: env.SVC_BASE_URL })
      const health = await client.health.get()
      assert.equal(health.object, 'health')
      const page = await client.leads.list({ limit: 1 })
      assert.ok(Array.isArray(page.data))
      await assert.rejects(client.leads.get('lead_nope'), (e: unknown) => e instanceof mod.NotFoundError && (e as InstanceType<typeof NotFoundError>).status === 404)
      assert.equal(mod.default, mod.Svc)
    }
    const pkg = JSON.parse(readFileSync(join(HERE, 'dist/cjs/package.json'), 'utf8'))
    assert.equal(pkg.type, 'commonjs')
    for (const f of ['dist/esm/index.d.ts', 'dist/cjs/index.d.ts']) assert.ok(readFileSync(join(HERE, f), 'utf8').includes('Svc'))
  })
})
