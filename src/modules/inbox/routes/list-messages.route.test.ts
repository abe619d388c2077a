import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, sendMessage } from '../inbox.testkit.js'

describe('listMessages (GET /inbox/conversations/{id}/messages)', () => {
  let h: TestApp
  let id: string
  const sent: string[] = []
  before(async () => {
    h = await createTestApp()
    id = (await createConversation(h)).id
    for (let i = 0; i < 7; i++) sent.push(json(await sendMessage(h, id, { content: `message ${i}`, direction: i % 2 ? 'outbound' : 'inbound' })).id)
  })
  after(() => h.close())

  const all = async (order: string, limit: number) => {
    const ids: string[] = []
    let cursor: string | null = null
    do {
      const r = await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?limit=${limit}&order=${order}${cursor ? `&cursor=${cursor}` : ''}` })
      assert.equal(r.statusCode, 200, r.body)
      ids.push(...json(r).data.map((m: { id: string }) => m.id))
      cursor = json(r).next_cursor
    } while (cursor)
    return ids
  }

  it('pages newest first by default and oldest first with order=asc', async () => {
    assert.deepEqual(await all('desc', 3), [...sent].reverse())
    assert.deepEqual(await all('asc', 3), sent)
    const first = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?limit=1` }))
    assert.equal(first.data[0].id, sent[sent.length - 1])
  })

  it('rejects a cursor issued for the other order or another conversation, and bad parameters, with 422', async () => {
    const page = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?limit=2&order=asc` }))
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?order=desc&cursor=${page.next_cursor}` }), 422, 'invalid_cursor')
    const other = (await createConversation(h)).id
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${other}/messages?order=asc&cursor=${page.next_cursor}` }), 422, 'invalid_cursor')
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages?order=random` }), 422, 'validation_failed')
  })

  it("answers 404 for an unknown conversation and another workspace's", async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/conversations/conv_01JD0000000000000000000000/messages' }), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${id}/messages`, key: h.b.live }), 404, 'resource_not_found')
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: `/v2/inbox/conversations/${id}/messages` })
  })
})
