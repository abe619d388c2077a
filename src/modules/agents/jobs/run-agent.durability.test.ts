import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../../test/helpers.js'
import { startServer, svc, type ServerProcess } from '../../../../test/spawn.js'
import { startChatServer } from '../../../kernel/ai/ai.testkit.js'

// Runs across process deaths, with real service processes: a worker SIGKILLed in the middle of a tool
// call resumes on restart without repeating a completed effect, and two workers never execute one run
// at once. The tool server is idempotent the way a careful payment API is: an Idempotency-Key it has seen
// gets the stored answer, and its effect is committed once.

interface Seen {
  key: string
  path: string
  order: string
  at: number
  done?: number
}

async function idempotentToolServer(delayMs: (s: Seen, n: number) => number) {
  const seen: Seen[] = []
  const effects = new Map<string, number>()
  const answers = new Map<string, string>()
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const s: Seen = { key: String(req.headers['idempotency-key']), path: req.url ?? '', order: JSON.parse(body || '{}').order_id ?? '', at: Date.now() }
      seen.push(s)
      const stored = answers.get(s.key)
      if (stored) return void res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(stored)
      // The effect commits when the request arrives; the answer may come late (or never reach a dead caller).
      effects.set(s.key, (effects.get(s.key) ?? 0) + 1)
      const answer = JSON.stringify({ ok: true, path: s.path, order_id: s.order })
      answers.set(s.key, answer)
      setTimeout(
        () => {
          s.done = Date.now()
          if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(answer)
        },
        delayMs(s, seen.length),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    effects,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

const tool = (url: string, name: string, path: string, description: string) => ({
  type: 'http',
  name,
  description,
  url: `${url}${path}`,
  method: 'POST',
  timeout_ms: 20_000,
  parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id'] },
})

async function call(s: ServerProcess, key: string, method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${s.url}/v2${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await r.text()
  assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${text}`)
  return JSON.parse(text)
}

async function until(s: ServerProcess, key: string, path: string, done: (r: any) => boolean, ms = 60_000): Promise<any> {
  const deadline = Date.now() + ms
  for (;;) {
    const r = await call(s, key, 'GET', path)
    if (done(r)) return r
    if (Date.now() > deadline) assert.fail(`still ${r.status}: ${JSON.stringify(r.steps ?? r)}`)
    await sleep(100)
  }
}

describe(`agent runs across process deaths (${ENGINE})`, () => {
  let db: TestDatabase
  let env: Record<string, string>
  let key: string
  before(async () => {
    db = await createTestDatabase()
    env = { ...db.env, JOB_LEASE_SECONDS: '2', JOB_POLL_INTERVAL_MS: '50', OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '1000000' }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Durable', '--json'], env))
    key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key
  })
  after(() => db.drop())

  it('a worker SIGKILLed during a tool call: the run completes on restart, each step key committed once', async () => {
    // The model asks for the refund, then the notification, then answers.
    const chat = await startChatServer((body) => {
      const results = body.messages.filter((m: any) => m.role === 'tool').length
      if (results === 0) return { toolCalls: [{ name: 'refund_order', arguments: '{"order_id":"ord_1","amount":30}' }] }
      if (results === 1) return { toolCalls: [{ name: 'notify_customer', arguments: '{"order_id":"ord_1"}' }] }
      return { text: 'Refunded and notified.' }
    })
    // The first notification never gets its answer out before the kill.
    const tools = await idempotentToolServer((s, n) => (s.path === '/notify' && n <= 2 ? 30_000 : 0))
    let server = await startServer({ ...env, AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'm' })
    try {
      const agent = await call(server, key, 'POST', '/agents', {
        name: 'Refunds',
        tools: [tool(tools.url, 'refund_order', '/refunds', 'Refund an order.'), tool(tools.url, 'notify_customer', '/notify', 'Tell the customer.')],
      })
      const run = await call(server, key, 'POST', `/agents/${agent.id}/runs`, { input: 'Refund ord_1 and tell the customer' })
      while (!tools.seen.some((s) => s.path === '/notify')) await sleep(20)
      server.child.kill('SIGKILL')
      await server.exited
      server = await startServer({ ...env, AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'm' })
      const done = await until(server, key, `/agents/${agent.id}/runs/${run.id}`, (r) => !['queued', 'running'].includes(r.status))
      assert.equal(done.status, 'succeeded', JSON.stringify(done.steps))
      assert.deepEqual(
        done.steps.map((s: any) => `${s.type}${s.tool ? `:${s.tool}` : ''}`),
        ['reasoning', 'tool_call:refund_order', 'tool_result:refund_order', 'reasoning', 'tool_call:notify_customer', 'tool_result:notify_customer', 'message'],
      )
      const keys = done.steps.filter((s: any) => s.type === 'tool_call').map((s: any) => s.idempotency_key)
      // The refund completed before the kill: never sent again. The notification was sent again with its key.
      assert.deepEqual(
        tools.seen.map((s) => [s.path, s.key]),
        [
          ['/refunds', keys[0]],
          ['/notify', keys[1]],
          ['/notify', keys[1]],
        ],
      )
      assert.deepEqual(
        [...tools.effects.entries()],
        [
          [keys[0], 1],
          [keys[1], 1],
        ],
        'each step committed once',
      )
      assert.equal(done.output.text, 'Refunded and notified.')
    } finally {
      await server.stop('SIGKILL')
      await tools.close()
      await chat.close()
    }
  })

  it('two workers on PostgreSQL never execute one run at the same time', { skip: ENGINE !== 'postgres' ? 'needs PostgreSQL' : false }, async () => {
    // Calls outlast the lease (3 s): only its renewal (every second) keeps the other worker off a run. A 2 s lease
    // lapsed once with the linter running beside the suite on 2 cores: a renewal two-thirds of a lease late.
    const tools = await idempotentToolServer(() => 4_500)
    const lease = { ...env, JOB_LEASE_SECONDS: '3' }
    const a = await startServer(lease)
    const b = await startServer(lease)
    try {
      const agent = await call(a, key, 'POST', '/agents', { name: 'Parallel', tools: [tool(tools.url, 'refund_order', '/refunds', 'Refund an order: the amount goes back to the customer.')] })
      const runs = []
      for (let i = 0; i < 6; i++) runs.push(await call(i % 2 ? b : a, key, 'POST', `/agents/${agent.id}/runs`, { input: `Please refund order ord_${i}, amount 10` }))
      for (const r of runs) {
        const done = await until(a, key, `/agents/${agent.id}/runs/${r.id}`, (x) => !['queued', 'running'].includes(x.status))
        assert.equal(done.status, 'succeeded', JSON.stringify(done.steps))
        assert.equal(done.usage.tool_calls, 1)
      }
      for (let i = 0; i < 6; i++) {
        const calls = tools.seen.filter((s) => s.order === `ord_${i}`)
        assert.equal(calls.length, 1, `ord_${i} called ${calls.length} times`)
      }
      assert.ok([...tools.effects.values()].every((n) => n === 1))
    } finally {
      await Promise.all([a.stop('SIGKILL'), b.stop('SIGKILL')])
      await tools.close()
    }
  })
})
