import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, createTag, memberSession } from '../inbox.testkit.js'

describe('listConversations (GET /inbox/conversations)', () => {
  let h: TestApp
  const created: string[] = []
  let ownerId: string
  before(async () => {
    h = await createTestApp()
    await createTag(h, 'VIP')
    ownerId = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` })).data[0].id
    for (let i = 0; i < 45; i++) {
      const c = await createConversation(h, {
        channel: i % 3 === 0 ? 'email' : 'chat',
        ...(i % 5 === 0 ? { tags: ['vip'] } : {}),
        ...(i % 4 === 0 ? { assignee_id: ownerId } : {}),
      })
      created.push(c.id)
    }
  })
  after(() => h.close())

  it('pages through 45 conversations with limit 20 in 3 pages, newest first, no duplicates or gaps', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    const sizes: number[] = []
    let last: any
    do {
      const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=20${cursor ? `&cursor=${cursor}` : ''}` })
      assert.equal(r.statusCode, 200, r.body)
      last = json(r)
      sizes.push(last.data.length)
      seen.push(...last.data.map((c: { id: string }) => c.id))
      cursor = last.next_cursor
    } while (cursor)
    assert.deepEqual(sizes, [20, 20, 5])
    assert.equal(last.has_more, false)
    assert.equal(last.next_cursor, null)
    assert.deepEqual(seen, [...created].reverse())
  })

  it('filters by status, assignee, unassigned, tag (case-insensitive), channel and updated_after', async () => {
    const ids = async (qs: string) => {
      const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=100&${qs}` })
      assert.equal(r.statusCode, 200, r.body)
      return json(r).data.map((c: { id: string }) => c.id) as string[]
    }
    const pick = (f: (i: number) => boolean) => created.filter((_, i) => f(i)).reverse()
    assert.deepEqual(
      await ids('channel=email'),
      pick((i) => i % 3 === 0),
    )
    assert.deepEqual(
      await ids('tag=VIP'),
      pick((i) => i % 5 === 0),
    )
    assert.deepEqual(
      await ids('tag=vip&channel=email'),
      pick((i) => i % 5 === 0 && i % 3 === 0),
    )
    assert.deepEqual(
      await ids(`assignee=${ownerId}`),
      pick((i) => i % 4 === 0),
    )
    assert.deepEqual(
      await ids('assignee=unassigned'),
      pick((i) => i % 4 !== 0),
    )
    assert.deepEqual(await ids('tag=unknown-tag'), [])

    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${created[7]}/resolve` })
    assert.deepEqual(await ids('status=resolved'), [created[7]])
    const since = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${created[7]}` })).updated_at
    await new Promise((r) => setTimeout(r, 5))
    await h.request({ method: 'PATCH', url: `/v2/inbox/conversations/${created[3]}`, payload: { subject: 'touched' } })
    assert.deepEqual(await ids(`updated_after=${encodeURIComponent(since)}`), [created[3]])
  })

  it('answers 422 for invalid filter values', async () => {
    for (const qs of ['status=closed', 'assignee=bob', 'tag=%00', 'tag=', 'channel=fax', 'updated_after=yesterday', 'limit=0', 'limit=101', 'sort=asc']) {
      assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations?${qs}` }), 422, 'validation_failed')
    }
  })

  it('binds a cursor to its filters: reusing it with other filters answers 422', async () => {
    const page = json(await h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=5&channel=chat' }))
    assert.ok(page.next_cursor)
    const same = await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=5&channel=chat&cursor=${page.next_cursor}` })
    assert.equal(same.statusCode, 200)
    const other = await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=5&channel=email&cursor=${page.next_cursor}` })
    assertProblem(other, 422, 'invalid_cursor')
    const b = await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=5&channel=chat&cursor=${page.next_cursor}`, key: h.b.live })
    assertProblem(b, 422, 'invalid_cursor')
  })

  it('returns numeric lead scores when Svc-Api-Version pins 2.3.4', async () => {
    const r = await h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=3', headers: { 'svc-api-version': '2.3.4' } })
    assert.equal(r.statusCode, 200, r.body)
    for (const c of json(r).data) assert.equal(typeof c.lead_score, 'number')
  })

  it("shows another workspace none of A's conversations", async () => {
    const r = await h.request({ method: 'GET', url: '/v2/inbox/conversations', key: h.b.live })
    assert.equal(r.statusCode, 200)
    assert.deepEqual(json(r).data, [])
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/inbox/conversations' })
  })
})

describe('listConversations for working (issue 31): last activity, previews, assignee=me, unread', () => {
  let h: TestApp
  let mia: { token: string; memberId: string }
  const ids: string[] = []
  const list = async (qs: string, key?: string) => {
    const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations?${qs}`, ...(key ? { key } : {}) })
    assert.equal(r.statusCode, 200, r.body)
    return json(r)
  }
  const say = (id: string, content: string, direction: 'inbound' | 'outbound' = 'inbound') =>
    h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content, direction } })
  before(async () => {
    h = await createTestApp()
    mia = await memberSession(h, 'mia@example.com')
    for (let i = 0; i < 5; i++) ids.push((await createConversation(h, { ...(i % 2 === 0 ? { assignee_id: mia.memberId } : {}) })).id)
  })
  after(() => h.close())

  it('order=last_activity puts the conversation with the newest message first; pages by (activity, id) without gaps', async () => {
    assert.equal((await say(ids[1], 'Back again: the invoice is wrong. '.repeat(10))).statusCode, 201)
    const first = await list('order=last_activity&limit=2')
    assert.equal(first.data[0].id, ids[1])
    assert.equal(first.data[0].last_activity_at, first.data[0].last_message.created_at)
    const seen = first.data.map((c: any) => c.id)
    let cursor = first.next_cursor
    while (cursor) {
      const page = await list(`order=last_activity&limit=2&cursor=${cursor}`)
      seen.push(...page.data.map((c: any) => c.id))
      cursor = page.next_cursor
    }
    assert.deepEqual(seen, [ids[1], ids[4], ids[3], ids[2], ids[0]])
    // The cursor is bound to the order.
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations?limit=2&cursor=${first.next_cursor}` }), 422, 'invalid_cursor')
  })

  it('every conversation carries last_message: a preview of 140 characters, or null before the first message', async () => {
    const [c] = (await list('order=last_activity&limit=1')).data
    assert.equal(c.last_message.direction, 'inbound')
    assert.equal(c.last_message.author.type, 'contact')
    assert.equal(c.last_message.private, false)
    assert.equal(c.last_message.preview, 'Back again: the invoice is wrong. '.repeat(10).slice(0, 140))
    const note = await h.request({ method: 'POST', url: `/v2/inbox/conversations/${ids[1]}/messages`, payload: { content: 'Internal: check the refund', private: true } })
    const got = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${ids[1]}` }))
    assert.deepEqual(got.last_message, {
      id: json(note).id,
      direction: 'outbound',
      author: { type: 'api_key', id: got.last_message.author.id },
      private: true,
      preview: 'Internal: check the refund',
      created_at: json(note).created_at,
    })
    const fresh = await createConversation(h, {})
    assert.equal(fresh.last_message, null)
    assert.equal(fresh.last_activity_at, fresh.created_at)
    assert.equal(fresh.unread_count, null)
  })

  it('assignee=me lists the conversations of the member behind a dashboard session; an API key gets 422', async () => {
    const mine = await list('assignee=me&order=last_activity', mia.token)
    assert.deepEqual(mine.data.map((c: any) => c.id).sort(), [ids[0], ids[2], ids[4]].sort())
    const refused = await h.request({ method: 'GET', url: '/v2/inbox/conversations?assignee=me' })
    assertProblem(refused, 422, 'member_credential_required')
    assert.equal(json(refused).errors[0].pointer, '/query/assignee')
  })

  it('unread_count counts inbound messages after the member’s mark; unread=true lists only those', async () => {
    const other = await createConversation(h, { message: { content: 'First question' } })
    await say(other.id, 'Second question')
    const got = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${other.id}`, key: mia.token }))
    assert.equal(got.unread_count, 2)
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${other.id}` })).unread_count, null, 'an API key has no read state')
    const unread = await list('unread=true&order=last_activity&limit=100', mia.token)
    assert.ok(unread.data.some((c: any) => c.id === other.id))
    assert.ok(!unread.data.some((c: any) => c.id === ids[0]), 'no inbound message: nothing unread')
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${other.id}/read`, key: mia.token, payload: {} })
    const after = await list('unread=true&order=last_activity&limit=100', mia.token)
    assert.ok(!after.data.some((c: any) => c.id === other.id))
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/conversations?unread=true' }), 422, 'member_credential_required')
  })
})
