import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { freePort } from '../../../../test/spawn.js'
import { openStream, waitFor, type OpenStream } from '../live.testkit.js'

describe('streamEvents', () => {
  let h: TestApp
  let base: string
  const open: OpenStream[] = []
  before(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    h = await createTestApp({ env: { PUBLIC_URL: base, SSE_HEARTBEAT_MS: '200', EVENT_STREAM_RECHECK_MS: '200' } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    h.app.kernel.jobs.start()
  })
  after(async () => {
    for (const s of open) s.close()
    h.app.http.server.closeAllConnections()
    await h.close()
  })
  const stream = async (path: string, key = h.a.live, headers: Record<string, string> = {}) => {
    const s = await openStream(base, path, key, headers)
    open.push(s)
    return s
  }
  const conversation = async (key = h.a.live, sandbox = false) =>
    json(await h.request({ method: 'POST', url: `${sandbox ? '/sandbox' : ''}/v2/inbox/conversations`, key, payload: { message: { content: 'Hello there' } } }))

  it('sends ready, then each committed event of the workspace within a second, as webhooks deliver it', async () => {
    const s = await stream('/v2/events/stream')
    assert.equal(s.status, 200)
    const ready = await waitFor(() => s.events.find((e) => e.event === 'ready'), 2000, 'ready')
    const r = JSON.parse(ready.data)
    assert.equal(r.object, 'event_stream')
    assert.ok(r.types.includes('conversation.created') && r.types.includes('presence'))
    assert.match(ready.id!, /^evt_/)
    const c = await conversation()
    // Committed when the answer came: the stream has it within a second (the feed polls every 250 ms, a commit wakes it at once).
    const got = await waitFor(() => s.stored().find((e) => e.type === 'message.created' && e.data.object.conversation_id === c.id), 1000, 'message.created within 1 s')
    const created = s.stored().find((e) => e.type === 'conversation.created' && e.data.object.id === c.id)!
    assert.equal(created.workspace_id, h.a.workspaceId)
    assert.equal(created.livemode, true)
    // The SSE id is the event id, the envelope the stored one.
    const frame = s.events.find((e) => e.event === 'event' && JSON.parse(e.data).id === got.id)!
    assert.equal(frame.id, got.id)
    const stored = await h.app.kernel.db.selectFrom('events').select(['id', 'type']).where('id', '=', got.id).executeTakeFirstOrThrow()
    assert.equal(stored.type, 'message.created')
  })

  it("never sends another workspace's or the other mode's events", async () => {
    const s = await stream('/v2/events/stream')
    await waitFor(() => s.events.find((e) => e.event === 'ready'))
    const theirs = await conversation(h.b.live)
    const sandbox = await conversation(h.a.test, true)
    const mine = await conversation()
    await waitFor(() => s.stored().some((e) => e.data.object.id === mine.id), 2000, 'own event')
    const ids = s.stored().map((e) => e.data.object.id ?? e.data.object.conversation_id)
    assert.ok(!ids.includes(theirs.id) && !ids.includes(sandbox.id))
    // The sandbox base URL streams the sandbox.
    const t = await stream('/sandbox/v2/events/stream', h.a.test)
    await waitFor(() => t.events.find((e) => e.event === 'ready'))
    const again = await conversation(h.a.test, true)
    await waitFor(() => t.stored().some((e) => e.data.object.id === again.id), 2000, 'sandbox event')
    assert.ok(t.stored().every((e) => e.livemode === false))
  })

  it('filters by type and by what the credential may read; naming an unreadable or unknown type is refused', async () => {
    const leadsOnly = await h.key(['leads:read'])
    const s = await stream('/v2/events/stream', leadsOnly)
    const ready = JSON.parse((await waitFor(() => s.events.find((e) => e.event === 'ready'))).data)
    assert.ok(
      ready.types.every((t: string) => t.startsWith('lead.')),
      JSON.stringify(ready.types),
    )
    const c = await conversation()
    const lead = json(await h.request({ method: 'POST', url: '/v2/leads', payload: { name: 'Ada', email: `ada${Date.now()}@example.com` } }))
    await waitFor(() => s.stored().some((e) => e.type === 'lead.created' && e.data.object.id === lead.id), 2000, 'lead.created')
    assert.ok(!s.stored().some((e) => e.type.startsWith('conversation.') || e.data.object.id === c.id))

    const only = await stream('/v2/events/stream?types=message.created')
    await waitFor(() => only.events.find((e) => e.event === 'ready'))
    const c2 = await conversation()
    await waitFor(() => only.stored().some((e) => e.data.object.conversation_id === c2.id), 2000, 'message.created')
    assert.ok(only.stored().every((e) => e.type === 'message.created'))

    assertProblem(await h.request({ method: 'GET', url: '/v2/events/stream?types=conversation.*', key: leadsOnly }), 403, 'insufficient_scope')
    assertProblem(await h.request({ method: 'GET', url: '/v2/events/stream?types=presence', key: leadsOnly }), 403, 'insufficient_scope')
    const bad = await h.request({ method: 'GET', url: '/v2/events/stream?types=nope.*' })
    assertProblem(bad, 422, 'validation_failed')
    assert.equal(json(bad).errors[0].pointer, '/query/types')
    assertProblem(await h.request({ method: 'GET', url: '/v2/events/stream?after=evt_nope' }), 422, 'validation_failed')
    assertProblem(
      await h.request({ method: 'GET', url: '/v2/events/stream', key: await h.key(['conversations:write'], { workspaceId: h.b.workspaceId }), headers: { 'last-event-id': 'garbage' } }),
      422,
      'validation_failed',
    )
  })

  it('resumes after Last-Event-ID from the stored events, missing nothing committed while away', async () => {
    const s = await stream('/v2/events/stream?types=conversation.created')
    await waitFor(() => s.events.find((e) => e.event === 'ready'))
    const first = await conversation()
    const seen = await waitFor(() => s.stored().find((e) => e.data.object.id === first.id), 2000, 'first')
    s.close()
    const missed = [await conversation(), await conversation(), await conversation()]
    const r = await stream('/v2/events/stream?types=conversation.created', h.a.live, { 'last-event-id': seen.id })
    await waitFor(() => missed.every((m) => r.stored().some((e) => e.data.object.id === m.id)), 2000, 'the missed events')
    const ready = JSON.parse(r.events.find((e) => e.event === 'ready')!.data)
    assert.equal(ready.resumed_after, seen.id)
    // In order, each once; and live events go on after the backlog.
    const ids = r.stored().map((e) => e.id)
    assert.deepEqual(ids, [...ids].sort())
    assert.equal(new Set(ids).size, ids.length)
    const next = await conversation()
    await waitFor(() => r.stored().some((e) => e.data.object.id === next.id), 1000, 'live after the resume')
    // `after` is the same as the header; `ready`'s id resumes from where the stream started.
    const q = await stream(`/v2/events/stream?types=conversation.created&after=${seen.id}`)
    await waitFor(() => q.stored().some((e) => e.data.object.id === next.id), 2000, 'after=')
  })

  it('ends with an error event once the credential is revoked', async () => {
    const key = json(await h.request({ method: 'POST', url: '/v2/api-keys', payload: { name: 'stream', scopes: ['read'] } }))
    const s = await stream('/v2/events/stream', key.key)
    await waitFor(() => s.events.find((e) => e.event === 'ready'))
    await h.request({ method: 'POST', url: `/v2/api-keys/${key.id}/revoke`, payload: {} })
    const err = await waitFor(() => s.errors()[0], 3000, 'the error event')
    assert.equal(err.code, 'unauthorized')
    await s.ended
  })

  it('needs a credential with some read scope', async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/events/stream', key: null }), 401, 'unauthorized')
    assertProblem(await h.request({ method: 'GET', url: '/v2/events/stream', key: h.a.test }), 401)
  })
})
