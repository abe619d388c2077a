import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { startServer, svc, type ServerProcess } from './spawn.js'

// Two API processes on one PostgreSQL + Redis: one rate-limit budget, one idempotency store.
describe('two server processes on one PostgreSQL and Redis', { skip: ENGINE !== 'postgres' ? 'needs PostgreSQL' : false }, () => {
  let db: TestDatabase
  let a: ServerProcess
  let b: ServerProcess
  let key: string
  let workspaceId: string
  before(async () => {
    db = await createTestDatabase('postgres')
    const env = { ...db.env, RATE_LIMIT_PER_MINUTE: '20' }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Multi', '--json'], env))
    workspaceId = ws.id
    key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key
    // One after the other: two cold starts at once on a loaded 2-core machine can take long.
    a = await startServer(env)
    b = await startServer(env)
  })
  after(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    await db.drop()
  })

  const call = (s: ServerProcess, path: string, init: RequestInit = {}) =>
    fetch(s.url + path, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(init.headers ?? {}) } })

  it('shares the idempotency store: the same key on both processes has one effect', async () => {
    const body = JSON.stringify({ email: 'multi@example.com' })
    const [r1, r2] = await Promise.all([
      call(a, `/v2/workspaces/${workspaceId}/members`, { method: 'POST', body, headers: { 'idempotency-key': 'multi-1' } }),
      call(b, `/v2/workspaces/${workspaceId}/members`, { method: 'POST', body, headers: { 'idempotency-key': 'multi-1' } }),
    ])
    const statuses = [r1.status, r2.status].sort()
    assert.ok(statuses[0] === 201 && (statuses[1] === 201 || statuses[1] === 409), statuses.join(','))
    const r3 = await call(b, `/v2/workspaces/${workspaceId}/members`, { method: 'POST', body, headers: { 'idempotency-key': 'multi-1' } })
    assert.equal(r3.status, 201)
    assert.equal(r3.headers.get('idempotent-replayed'), 'true')
    const mismatch = await call(a, `/v2/workspaces/${workspaceId}/members`, { method: 'POST', body: JSON.stringify({ email: 'other@example.com' }), headers: { 'idempotency-key': 'multi-1' } })
    assert.equal(mismatch.status, 409)
    const list = (await (await call(a, `/v2/workspaces/${workspaceId}/members?limit=100`)).json()) as { data: { email: string }[] }
    assert.equal(list.data.filter((m) => m.email === 'multi@example.com').length, 1)
  })

  it('shares one rate-limit budget', async () => {
    const k2 = JSON.parse(await svc(['keys', 'create', '--scopes', 'read', '--workspace', workspaceId, '--json'], db.env)).key
    const statuses: number[] = []
    const remaining: number[] = []
    for (let i = 0; i < 22; i++) {
      const r = await fetch(`${(i % 2 ? a : b).url}/v2/workspaces/current`, { headers: { authorization: `Bearer ${k2}` } })
      statuses.push(r.status)
      remaining.push(Number(r.headers.get('x-ratelimit-remaining')))
    }
    assert.deepEqual(statuses.slice(0, 20), Array(20).fill(200))
    assert.deepEqual(statuses.slice(20), [429, 429])
    assert.deepEqual(
      remaining.slice(0, 20),
      Array.from({ length: 20 }, (_, i) => 19 - i),
      'one counter across both processes',
    )
  })
})
