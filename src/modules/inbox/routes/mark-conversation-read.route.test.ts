import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, memberSession, sendMessage } from '../inbox.testkit.js'

describe('markConversationRead (POST /inbox/conversations/{id}/read)', () => {
  let h: TestApp
  let mia: { token: string; memberId: string }
  let ben: { token: string; memberId: string }
  before(async () => {
    h = await createTestApp()
    mia = await memberSession(h, 'mia@example.com')
    ben = await memberSession(h, 'ben@example.com')
  })
  after(() => h.close())
  const read = (id: string, key: string, payload: object = {}) => h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/read`, key, payload })
  const unread = async (id: string, key: string) => json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}`, key })).unread_count

  it('marks up to the newest message: unread_count 0 for that member only, and new inbound messages count again', async () => {
    const c = await createConversation(h, { message: { content: 'Hello?' } })
    await sendMessage(h, c.id, { content: 'Anyone there?', direction: 'inbound' })
    await sendMessage(h, c.id, { content: 'Yes, here.' })
    assert.equal(await unread(c.id, mia.token), 2)
    const r = await read(c.id, mia.token)
    assert.equal(r.statusCode, 200, r.body)
    assert.equal(json(r).id, c.id)
    assert.equal(json(r).unread_count, 0)
    assert.equal(await unread(c.id, mia.token), 0)
    assert.equal(await unread(c.id, ben.token), 2, 'read state is per member')
    await sendMessage(h, c.id, { content: 'One more thing', direction: 'inbound' })
    await sendMessage(h, c.id, { content: 'A reply does not count' })
    assert.equal(await unread(c.id, mia.token), 1)
    const rows = await h.app.kernel.db.selectFrom('events').select('type').where('type', 'like', '%read%').execute()
    assert.deepEqual(rows, [], 'read state emits no event')
  })

  it('marks up to a given message: the inbound messages after it stay unread', async () => {
    const c = await createConversation(h, { message: { content: 'one' } })
    const two = json(await sendMessage(h, c.id, { content: 'two', direction: 'inbound' }))
    await sendMessage(h, c.id, { content: 'three', direction: 'inbound' })
    const r = await read(c.id, ben.token, { message_id: two.id })
    assert.equal(r.statusCode, 200, r.body)
    assert.equal(json(r).unread_count, 1)
    assert.equal(await unread(c.id, ben.token), 1)
    const other = await createConversation(h, { message: { content: 'elsewhere' } })
    const foreign = json(await sendMessage(h, other.id, { content: 'x', direction: 'inbound' }))
    const bad = await read(c.id, ben.token, { message_id: foreign.id })
    assertProblem(bad, 422, 'invalid_reference')
    assert.equal(json(bad).errors[0].pointer, '/body/message_id')
    assertProblem(await read(c.id, ben.token, { message_id: 'msg_01JD0000000000000000000000' }), 422, 'invalid_reference')
  })

  it('answers 422 member_credential_required for an API key, 404 for an unknown or foreign conversation', async () => {
    const c = await createConversation(h, {})
    assertProblem(await read(c.id, h.a.live), 422, 'member_credential_required')
    assertProblem(await read('conv_01JD0000000000000000000000', mia.token), 404, 'resource_not_found')
    const foreign = await createConversation(h, {}, h.b.live)
    assertProblem(await read(foreign.id, mia.token), 404, 'resource_not_found')
    assertProblem(await read(c.id, mia.token, { extra: 1 }), 422, 'validation_failed')
  })

  it('requires a credential with conversations:read', async () => {
    const c = await createConversation(h, {})
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${c.id}/read`, payload: {} })
  })
})
