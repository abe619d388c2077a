import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { ENGINE, createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { MAX_MESSAGE_LENGTH } from '../inbox.schemas.js'
import { assertAuthRequired, assertProblem, createConversation, eventsFor, sendMessage } from '../inbox.testkit.js'

describe('sendMessage (POST /inbox/conversations/{id}/messages)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const messagesOf = async (id: string) => json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?limit=100` })).data

  it('adds an outbound message from the API key and emits message.created with it', async () => {
    const { id } = await createConversation(h)
    const r = await sendMessage(h, id, { content: 'Hello Ada', attachments: [{ url: 'https://files.example.com/a.pdf', filename: 'a.pdf' }] })
    assert.equal(r.statusCode, 201, r.body)
    const m = json(r)
    assert.match(m.id, /^msg_[0-9A-Z]{26}$/)
    assert.equal(m.direction, 'outbound')
    assert.equal(m.author.type, 'api_key')
    assert.match(m.author.id, /^key_/)
    assert.equal(m.private, false)
    assert.deepEqual(m.attachments, [{ url: 'https://files.example.com/a.pdf', filename: 'a.pdf', content_type: null, size_bytes: null }])
    assert.deepEqual(await eventsFor(h, 'message.created', m.id), [m])
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` })).last_message_at, m.created_at)
  })

  it('counts an inbound message in the lead score, with a factor that says why', async () => {
    const { id } = await createConversation(h)
    await sendMessage(h, id, { content: 'Can I get a demo? And what is your pricing?', direction: 'inbound' })
    const c = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` }))
    assert.equal(c.lead_score.score, 25 + 15 + 3)
    assert.ok(c.lead_score.factors.includes('+25 asked about pricing'), c.lead_score.factors.join('; '))
    assert.ok(c.lead_score.factors.includes('+15 asked for a demo or a trial'))
  })

  it('keeps private notes for the team: outbound only', async () => {
    const { id } = await createConversation(h)
    const note = json(await sendMessage(h, id, { content: 'VIP, be nice', private: true }))
    assert.equal(note.private, true)
    assertProblem(await sendMessage(h, id, { content: 'x', private: true, direction: 'inbound' }), 422, 'invalid_message_author')
  })

  it('checks that direction and author agree, and that a member author is an active member', async () => {
    const { id } = await createConversation(h)
    const owner = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members` })).data[0].id
    const byMember = json(await sendMessage(h, id, { content: 'hi', author: { type: 'member', id: owner } }))
    assert.deepEqual(byMember.author, { type: 'member', id: owner })
    const byBot = json(await sendMessage(h, id, { content: 'hi', author: { type: 'bot', id: 'bot_1' } }))
    assert.deepEqual(byBot.author, { type: 'bot', id: 'bot_1' })
    assertProblem(await sendMessage(h, id, { content: 'hi', direction: 'inbound', author: { type: 'member', id: owner } }), 422, 'invalid_message_author')
    assertProblem(await sendMessage(h, id, { content: 'hi', author: { type: 'contact' } }), 422, 'invalid_message_author')
    assertProblem(await sendMessage(h, id, { content: 'hi', author: { type: 'member' } }), 422, 'invalid_message_author')
    assertProblem(await sendMessage(h, id, { content: 'hi', author: { type: 'member', id: 'mem_01JD0000000000000000000000' } }), 422, 'assignee_not_member')
    assertProblem(await sendMessage(h, id, { content: 'hi', author: { type: 'member', id: "mem_'; drop table x" } }), 422, 'assignee_not_member')
  })

  it(`rejects missing, empty, blank or over-long content (max ${MAX_MESSAGE_LENGTH}) and bad attachments with 422`, async () => {
    const { id } = await createConversation(h)
    for (const payload of [
      {},
      { content: '' },
      { content: '   \n ' },
      { content: 'x'.repeat(MAX_MESSAGE_LENGTH + 1) },
      { content: 42 },
      { content: 'x', direction: 'sideways' },
      { content: 'x', attachments: [{ url: 'ftp://example.com/a' }] },
      { content: 'x', attachments: [{ url: 'not a url' }] },
      { content: 'nul \u0000 byte' },
      { content: 'x', author: { type: 'bot', id: 'bot\u0000' } },
    ]) {
      assertProblem(await sendMessage(h, id, payload as Record<string, unknown>), 422, 'validation_failed')
    }
    assert.equal((await sendMessage(h, id, { content: 'x'.repeat(MAX_MESSAGE_LENGTH) })).statusCode, 201)
  })

  it('creates one message for the same Idempotency-Key and body, replaying the first response', async () => {
    const { id } = await createConversation(h)
    const headers = { 'idempotency-key': 'msg-key-1' }
    const first = await sendMessage(h, id, { content: 'only once' }, headers)
    const second = await sendMessage(h, id, { content: 'only once' }, headers)
    assert.equal(first.statusCode, 201)
    assert.equal(second.statusCode, 201)
    assert.equal(second.headers['idempotent-replayed'], 'true')
    assert.equal(second.body, first.body)
    assert.equal((await messagesOf(id)).length, 1)
    assert.equal((await eventsFor(h, 'message.created', json(first).id)).length, 1)
  })

  it('answers 409 when the same Idempotency-Key comes with a different body, and creates nothing', async () => {
    const { id } = await createConversation(h)
    const headers = { 'idempotency-key': 'msg-key-2' }
    assert.equal((await sendMessage(h, id, { content: 'first' }, headers)).statusCode, 201)
    const r = await sendMessage(h, id, { content: 'second' }, headers)
    assertProblem(r, 409, 'idempotency_key_reused')
    assert.deepEqual(
      (await messagesOf(id)).map((m: { content: string }) => m.content),
      ['first'],
    )
  })

  it('a write that fails leaves neither the change nor its event behind', async () => {
    const { id, updated_at } = await createConversation(h)
    // The database itself refuses the conversation update that follows the message insert and its event.
    if (ENGINE === 'postgres') {
      await sql.raw(`create function inbox_refuse() returns trigger as $$ begin raise exception 'refused by test'; end $$ language plpgsql`).execute(h.app.kernel.db)
      await sql.raw(`create trigger inbox_refuse before update on inbox_conversations for each row when (old.id = '${id}') execute function inbox_refuse()`).execute(h.app.kernel.db)
    } else {
      await sql.raw(`create trigger inbox_refuse before update on inbox_conversations when old.id = '${id}' begin select raise(abort, 'refused by test'); end`).execute(h.app.kernel.db)
    }
    const failed = await sendMessage(h, id, { content: 'will not stay', direction: 'inbound' }, { 'idempotency-key': 'msg-key-3' })
    assertProblem(failed, 500, 'internal_error')

    const messages = await h.app.kernel.db.selectFrom('inbox_messages').select('id').where('conversation_id', '=', id).execute()
    assert.deepEqual(messages, [])
    const events = await h.app.kernel.db.selectFrom('events').select('data').where('type', '=', 'message.created').execute()
    assert.equal(events.filter((e) => JSON.parse(e.data).object.conversation_id === id).length, 0)
    const c = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}` }))
    assert.equal(c.updated_at, updated_at)
    assert.equal(c.last_message_at, null)

    // Once the database accepts it again, the same key goes through: a failed request was not stored.
    await sql.raw('drop trigger inbox_refuse' + (ENGINE === 'postgres' ? ' on inbox_conversations' : '')).execute(h.app.kernel.db)
    const retried = await sendMessage(h, id, { content: 'will not stay', direction: 'inbound' }, { 'idempotency-key': 'msg-key-3' })
    assert.equal(retried.statusCode, 201, retried.body)
    assert.equal(retried.headers['idempotent-replayed'], undefined)
    assert.equal((await eventsFor(h, 'message.created', json(retried).id)).length, 1)
  })

  it("answers 404 for an unknown conversation and for another workspace's", async () => {
    const { id } = await createConversation(h)
    assertProblem(await sendMessage(h, 'conv_01JD0000000000000000000000', { content: 'x' }), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: 'x' }, key: h.b.live }), 404)
    assert.deepEqual(await messagesOf(id), [])
  })

  it('requires a key with messages:write', async () => {
    const { id } = await createConversation(h)
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: 'x' } })
  })
})
