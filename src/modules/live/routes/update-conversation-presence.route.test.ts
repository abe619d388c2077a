import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { freePort } from '../../../../test/spawn.js'
import { openStream, waitFor, type OpenStream } from '../live.testkit.js'

describe('updateConversationPresence', () => {
  let h: TestApp
  let base: string
  const open: OpenStream[] = []
  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    h = await createTestApp({ env: { PUBLIC_URL: base } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
  })
  after(async () => {
    for (const s of open) s.close()
    h.app.http.server.closeAllConnections()
    await h.close()
  })
  const conversation = async (key = h.a.live) => json(await h.request({ method: 'POST', url: '/v2/inbox/conversations', key, payload: {} }))

  it("reaches the workspace's streams at once, is never stored, and says who and until when", async () => {
    const s = await openStream(base, '/v2/events/stream?types=presence', h.a.live)
    open.push(s)
    await waitFor(() => s.events.find((e) => e.event === 'ready'))
    const other = await openStream(base, '/v2/events/stream', h.b.live)
    open.push(other)
    const c = await conversation()
    const eventsBefore = (
      await h.app.kernel.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
    const key = await h.key(['conversations:read'])
    const r = await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/presence`, key, payload: { state: 'typing' } })
    assert.equal(r.statusCode, 200)
    const p = json(r)
    assert.equal(p.object, 'presence')
    assert.equal(p.state, 'typing')
    assert.equal(p.actor.type, 'api_key')
    assert.ok(Date.parse(p.expires_at) > Date.now() + 20_000)
    const got = await waitFor(() => s.presence()[0], 1000, 'presence within 1 s')
    assert.deepEqual(got, p)
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/presence`, payload: { state: 'idle' } })
    const idle = await waitFor(() => s.presence().find((x) => x.state === 'idle'), 1000, 'idle')
    assert.ok(Date.parse(idle.expires_at) <= Date.now())
    const eventsAfter = (
      await h.app.kernel.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n
    assert.equal(Number(eventsAfter), Number(eventsBefore))
    assert.equal(other.presence().length, 0)
  })

  it("answers 404 for another workspace's conversation and 422 for an unknown state", async () => {
    const theirs = await conversation(h.b.live)
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${theirs.id}/presence`, payload: { state: 'viewing' } }), 404, 'resource_not_found')
    const mine = await conversation()
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${mine.id}/presence`, payload: { state: 'dancing' } }), 422, 'validation_failed')
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${mine.id}/presence`, key: await h.key(['leads:read']), payload: { state: 'viewing' } }), 403, 'insufficient_scope')
  })
})
