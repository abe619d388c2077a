import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestDatabase, ENGINE, type TestDatabase } from './helpers.js'
import { startServer, svc, type ServerProcess } from './spawn.js'

// Idempotency across crashes: requests cut off by a SIGKILL are retried with their keys after a restart;
// every key must end up as exactly one message — none lost, none written twice.
const ENV = { IDEMPOTENCY_LOCK_SECONDS: '1', JOB_LEASE_SECONDS: '2', RATE_LIMIT_PER_MINUTE: '1000000' }
const WRITERS = 16

const post = (s: ServerProcess, key: string, conv: string, idem: string) =>
  fetch(`${s.url}/v2/inbox/conversations/${conv}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idem },
    body: JSON.stringify({ content: `message ${idem}` }),
  })

/** Writers until the server dies; every key sent is remembered, with whether it was answered. */
function drive(s: ServerProcess, key: string, conv: string, round: number) {
  const sent = new Set<string>()
  const answered = new Set<string>()
  let running = true
  let n = 0
  const loops = Array.from({ length: WRITERS }, async (_, w) => {
    while (running) {
      const idem = `r${round}-w${w}-${n++}`
      sent.add(idem)
      try {
        const r = await post(s, key, conv, idem)
        await r.arrayBuffer()
        if (r.status === 201) answered.add(idem)
      } catch {
        return // the server is gone: this key is unanswered
      }
    }
  })
  return {
    sent,
    answered,
    async stop() {
      running = false
      await Promise.all(loops)
    },
  }
}

async function contents(s: ServerProcess, key: string, conv: string): Promise<string[]> {
  const all: string[] = []
  let cursor: string | null = null
  do {
    const r: Response = await fetch(`${s.url}/v2/inbox/conversations/${conv}/messages?limit=100${cursor ? `&cursor=${cursor}` : ''}`, { headers: { authorization: `Bearer ${key}` } })
    assert.equal(r.status, 200)
    const page = (await r.json()) as { data: { content: string }[]; next_cursor: string | null }
    all.push(...page.data.map((m) => m.content))
    cursor = page.next_cursor
  } while (cursor)
  return all
}

describe(`Idempotency-Key across a SIGKILL (${ENGINE})`, () => {
  let db: TestDatabase
  before(async () => (db = await createTestDatabase()))
  after(() => db.drop())

  it('retrying every unanswered request with its key gives zero duplicates and zero losses', async () => {
    const env = { ...db.env, ...ENV }
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Crash', '--json'], env))
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key as string
    let server = await startServer(env)
    const created = await fetch(`${server.url}/v2/inbox/conversations`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' })
    const conv = ((await created.json()) as { id: string }).id

    const sent = new Set<string>()
    const unanswered: string[] = []
    for (let round = 0; round < 3; round++) {
      const load = drive(server, key, conv, round)
      await new Promise((r) => setTimeout(r, 800 + round * 300))
      server.child.kill('SIGKILL')
      await server.exited
      await load.stop()
      for (const k of load.sent) sent.add(k)
      unanswered.push(...[...load.sent].filter((k) => !load.answered.has(k)))
      server = await startServer(env)
    }
    try {
      assert.ok(unanswered.length >= WRITERS, `expected requests cut off by the kills, got ${unanswered.length}`)
      // Retry each cut-off request with its key until it is answered (409 in progress until the lock lapses).
      for (const idem of unanswered) {
        for (let i = 0; ; i++) {
          const r = await post(server, key, conv, idem)
          const body = (await r.json()) as { code?: string }
          if (r.status === 201) break
          assert.equal(r.status, 409, `retry of ${idem}: ${JSON.stringify(body)}`)
          assert.equal(body.code, 'idempotency_request_in_progress', `retry of ${idem}: ${JSON.stringify(body)}`)
          assert.ok(i < 100, `retry of ${idem} never completed`)
          await new Promise((r) => setTimeout(r, 100))
        }
      }
      const counts = new Map<string, number>()
      for (const c of await contents(server, key, conv)) counts.set(c, (counts.get(c) ?? 0) + 1)
      const duplicates = [...counts].filter(([, n]) => n > 1)
      assert.deepEqual(duplicates, [], 'a retried Idempotency-Key wrote twice')
      const lost = [...sent].filter((k) => !counts.has(`message ${k}`))
      assert.deepEqual(lost, [], 'a request was lost')
    } finally {
      await server.stop()
    }
  })
})
