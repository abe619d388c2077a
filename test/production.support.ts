import assert from 'node:assert/strict'
import { createDatabase } from '../src/kernel/db/database.js'
import '../src/kernel/db/kernel.tables.js'
import type { TestDatabase } from './helpers.js'
import { svc, type ServerProcess } from './spawn.js'

// What the production tests share (production.test.ts, production-roles.test.ts): real processes under load.
export const BASE_ENV = { JOB_LEASE_SECONDS: '2', JOB_POLL_INTERVAL_MS: '50', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_PER_MINUTE: '1000000' }

export async function setup(db: TestDatabase, opts: { sandbox?: boolean } = {}) {
  const env = { ...db.env, ...BASE_ENV }
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Ops', '--json'], env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, ...(opts.sandbox ? ['--sandbox'] : []), '--json'], env)).key as string
  return { env, key, workspaceId: ws.id as string }
}

export const call = (s: ServerProcess, key: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(s.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })

/** Concurrent writers sending messages with Idempotency-Keys until stopped; returns what was answered 2xx. */
export function drive(s: ServerProcess, key: string, conv: string, base = '/v2', writers = 6) {
  const acked = new Map<string, string>() // idempotency key → message id
  let running = true
  let n = 0
  const loops = Array.from({ length: writers }, async (_, w) => {
    while (running) {
      const idem = `w${w}-${n++}`
      try {
        const r = await call(s, key, 'POST', `${base}/inbox/conversations/${conv}/messages`, { content: `message ${idem}` }, { 'idempotency-key': idem })
        if (r.status >= 200 && r.status < 300) acked.set(idem, ((await r.json()) as { id: string }).id)
        else await r.text()
      } catch {
        await new Promise((r) => setTimeout(r, 20)) // server gone: keep trying until stopped
      }
    }
  })
  return {
    acked,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

export async function allMessageIds(s: ServerProcess, key: string, conv: string, base = '/v2'): Promise<Set<string>> {
  const ids = new Set<string>()
  let cursor: string | null = null
  do {
    const r = await call(s, key, 'GET', `${base}/inbox/conversations/${conv}/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`)
    assert.equal(r.status, 200)
    const page = (await r.json()) as { data: { id: string }[]; next_cursor: string | null }
    for (const m of page.data) ids.add(m.id)
    cursor = page.next_cursor
  } while (cursor)
  return ids
}

export async function jobStates(db: TestDatabase) {
  const d = createDatabase(db.env.DATABASE_URL, { schema: db.env.DATABASE_SCHEMA })
  try {
    const rows = await d.db.selectFrom('jobs').select(['status', 'name', 'attempts']).execute()
    const events = await d.db.selectFrom('events').select(['type', 'data']).where('type', '=', 'message.created').execute()
    return { rows, messageEvents: new Set(events.map((e) => (JSON.parse(e.data) as { object: { id: string } }).object.id)) }
  } finally {
    await d.close()
  }
}

export async function settle(db: TestDatabase, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const s = await jobStates(db)
    const open = s.rows.filter((r) => (r.status === 'pending' || r.status === 'running') && r.name !== 'compliance.worker')
    if (open.length === 0 || Date.now() > deadline) return s
    await new Promise((r) => setTimeout(r, 200))
  }
}
