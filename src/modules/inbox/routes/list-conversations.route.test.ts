import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, createTag } from '../inbox.test-support.js'

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
    assert.deepEqual(await ids('channel=email'), pick((i) => i % 3 === 0))
    assert.deepEqual(await ids('tag=VIP'), pick((i) => i % 5 === 0))
    assert.deepEqual(await ids('tag=vip&channel=email'), pick((i) => i % 5 === 0 && i % 3 === 0))
    assert.deepEqual(await ids(`assignee=${ownerId}`), pick((i) => i % 4 === 0))
    assert.deepEqual(await ids('assignee=unassigned'), pick((i) => i % 4 !== 0))
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
