// Two server processes on one PostgreSQL: an event committed on one reaches a stream on the other within a
// second (LISTEN/NOTIFY), presence crosses too, and a stream resumes on the other process from the table.
import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { ENGINE, createTestDatabase } from '../../../test/helpers.js'
import { freePort, startServer, type ServerProcess } from '../../../test/spawn.js'
import { createKey } from '../webhooks/webhooks.testkit.js'
import { openStream, waitFor, type OpenStream } from './live.testkit.js'

describe('the live stream across processes', () => {
  const servers: ServerProcess[] = []
  const streams: OpenStream[] = []
  const cleanup: (() => Promise<void>)[] = []
  after(async () => {
    for (const s of streams) s.close()
    await Promise.all(servers.map((s) => s.stop('SIGKILL')))
    for (const f of cleanup) await f()
  })

  it('delivers, carries presence and resumes across two processes', { timeout: 180_000 }, async (t) => {
    if (ENGINE !== 'postgres') return t.skip('needs PostgreSQL (TEST_DB=postgres)')
    const db = await createTestDatabase()
    cleanup.push(() => db.drop())
    // A long poll interval: only the bus can make it within a second.
    const env = { ...db.env, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '100000', EVENT_FEED_POLL_MS: '5000' }
    const a = await startServer({ ...env, PORT: String(await freePort()) })
    servers.push(a)
    const b = await startServer({ ...env, PORT: String(await freePort()) })
    servers.push(b)
    const key = createKey({ ...process.env, ...env })
    const call = async (s: ServerProcess, method: string, path: string, body?: unknown) => {
      const r = await fetch(`${s.url}/sandbox/v2${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })
      assert.ok(r.status < 300, `${method} ${path}: ${r.status} ${await r.clone().text()}`)
      return r.json()
    }
    const onA = await openStream(a.url, '/sandbox/v2/events/stream?types=conversation.created,presence', key)
    streams.push(onA)
    const ready = JSON.parse((await waitFor(() => onA.events.find((e) => e.event === 'ready'), 5000, 'ready')).data)
    assert.equal(ready.bus, 'postgres')

    const c = await call(b, 'POST', '/inbox/conversations', {})
    const seen = await waitFor(() => onA.stored().find((e) => e.data.object.id === c.id), 1000, 'the event from the other process within 1 s')
    await call(b, 'POST', `/inbox/conversations/${c.id}/presence`, { state: 'typing' })
    await waitFor(() => onA.presence().find((p) => p.conversation_id === c.id && p.state === 'typing'), 1000, 'presence from the other process')

    onA.close()
    const missed = [await call(a, 'POST', '/inbox/conversations', {}), await call(b, 'POST', '/inbox/conversations', {})]
    const onB = await openStream(b.url, '/sandbox/v2/events/stream?types=conversation.created', key, { 'last-event-id': seen.id })
    streams.push(onB)
    await waitFor(() => missed.every((m) => onB.stored().some((e) => e.data.object.id === m.id)), 3000, 'the missed events, resumed on the other process')
    const ids = onB.stored().map((e) => e.id)
    assert.equal(new Set(ids).size, ids.length)
  })
})
