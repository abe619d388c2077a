import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

describe('inviteWorkspaceMember', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const url = () => `/v2/workspaces/${h.a.workspaceId}/members`

  it('creates an invited member with an invitation link, role member by default', async () => {
    const res = await h.request({ method: 'POST', url: url(), payload: { email: 'Bob@Example.com', name: 'Bob' } })
    assert.equal(res.statusCode, 201)
    const m = json(res)
    assert.match(m.id, /^mem_/)
    assert.equal(m.email, 'bob@example.com')
    assert.equal(m.role, 'member')
    assert.equal(m.status, 'invited')
    assert.match(m.invitation_url, /\/invitations\/[A-Za-z0-9_-]{32}$/)
    assert.equal(m.joined_at, null)
  })

  it('answers 409 for an email that is already a member (case-insensitive)', async () => {
    const res = await h.request({ method: 'POST', url: url(), payload: { email: 'BOB@example.com' } })
    assert.equal(res.statusCode, 409)
    assert.equal(json(res).code, 'member_already_exists')
  })

  it('validates email and role', async () => {
    for (const payload of [{ email: 'nope' }, { email: 'a@b.co', role: 'superuser' }, { email: 'x'.repeat(250) + '@b.co' }]) {
      assert.equal((await h.request({ method: 'POST', url: url(), payload })).statusCode, 422, JSON.stringify(payload))
    }
  })
})
