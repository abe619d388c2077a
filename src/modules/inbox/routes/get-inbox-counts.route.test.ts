import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, memberSession } from '../inbox.testkit.js'

describe('getInboxCounts (GET /inbox/counts)', () => {
  let h: TestApp
  let mia: { token: string; memberId: string }
  before(async () => {
    h = await createTestApp()
    mia = await memberSession(h, 'mia@example.com')
  })
  after(() => h.close())
  const counts = async (key: string) => {
    const r = await h.request({ method: 'GET', url: '/v2/inbox/counts', key })
    assert.equal(r.statusCode, 200, r.body)
    return json(r)
  }

  it('counts open conversations: all, mine, unassigned, unread, mine unread', async () => {
    const mineUnread = await createConversation(h, { assignee_id: mia.memberId, message: { content: 'help' } })
    const mineRead = await createConversation(h, { assignee_id: mia.memberId, message: { content: 'help too' } })
    await createConversation(h, { message: { content: 'anyone?' } })
    await createConversation(h, {})
    const resolved = await createConversation(h, { assignee_id: mia.memberId, message: { content: 'done' } })
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${resolved.id}/resolve` })
    await createConversation(h, { message: { content: 'other workspace' } }, h.b.live)
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${mineRead.id}/read`, key: mia.token, payload: {} })
    assert.deepEqual(await counts(mia.token), { object: 'inbox_counts', open: 4, mine: 2, unassigned: 2, unread: 2, mine_unread: 1, capped_at: 100 })
    assert.ok(mineUnread.id)
  })

  it('answers 422 member_credential_required for an API key', async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/counts' }), 422, 'member_credential_required')
  })

  it('requires a credential with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/inbox/counts' })
  })
})
