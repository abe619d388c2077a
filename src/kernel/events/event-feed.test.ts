import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { Redis } from 'ioredis'
import pino from 'pino'
import { createTestApp, REDIS_URL, type TestApp } from '../../../test/helpers.js'
import { newId } from '../ids.js'
import type { FeedEvent } from './event-feed.js'
import { RedisBus, type FeedMessage } from './feed-bus.js'

const waitFor = async <T>(check: () => T | undefined, ms = 3000): Promise<T> => {
  const deadline = Date.now() + ms
  for (;;) {
    const v = check()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('the live event feed', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp({ env: { EVENT_FEED_POLL_MS: '50' } })
  })
  after(() => h.close())

  const insert = (id: string, workspaceId = h.a.workspaceId) =>
    h.app.kernel.db
      .insertInto('events')
      .values({ id, workspace_id: workspaceId, mode: 'live', type: 'conversation.created', api_version: '2.4.0', data: JSON.stringify({ object: { id } }), created_at: new Date().toISOString() })
      .execute()

  it('delivers an event committed late (its id older than one delivered) once, and only to its workspace', async () => {
    const got: FeedEvent[] = []
    const theirs: FeedEvent[] = []
    const off = h.app.kernel.feed.subscribe({ workspaceId: h.a.workspaceId, mode: 'live' }, { event: (e) => got.push(e), signal: () => {} })
    const off2 = h.app.kernel.feed.subscribe({ workspaceId: h.b.workspaceId, mode: 'live' }, { event: (e) => theirs.push(e), signal: () => {} })
    try {
      // A slow transaction: its event's id is made first, but it commits after a newer event was delivered.
      const early = newId('evt', Date.now() - 500)
      const late = newId('evt')
      await insert(late)
      await waitFor(() => got.find((e) => e.envelope.id === late))
      await insert(early)
      await waitFor(() => got.find((e) => e.envelope.id === early))
      await new Promise((r) => setTimeout(r, 300))
      assert.deepEqual(got.map((e) => e.envelope.id).sort(), [early, late].sort())
      assert.equal(theirs.length, 0)
      assert.equal(got[0].json, JSON.stringify(got[0].envelope))
    } finally {
      off()
      off2()
    }
    assert.equal(h.app.kernel.feed.clients, 0)
  })

  it('carries signals over Redis between processes, never back to the sender', async () => {
    const redis = new Redis(REDIS_URL)
    const log = pino({ level: 'silent' })
    const channel = `svc_feed_test_${Date.now()}`
    const a = new RedisBus(redis, channel, log)
    const b = new RedisBus(redis, channel, log)
    const atA: FeedMessage[] = []
    const atB: FeedMessage[] = []
    await a.start((m) => atA.push(m))
    await b.start((m) => atB.push(m))
    try {
      await new Promise((r) => setTimeout(r, 100))
      a.publish({ kind: 'signal', workspace_id: 'ws_1', mode: 'live', name: 'presence', data: { state: 'typing' } })
      const m = await waitFor(() => atB[0])
      assert.deepEqual(m, { kind: 'signal', workspace_id: 'ws_1', mode: 'live', name: 'presence', data: { state: 'typing' } })
      await new Promise((r) => setTimeout(r, 100))
      assert.equal(atA.length, 0)
    } finally {
      await a.close()
      await b.close()
      redis.disconnect()
    }
  })
})
