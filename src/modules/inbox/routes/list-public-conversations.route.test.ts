import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation } from '../inbox.testkit.js'

describe('listPublicConversations (GET /conversations)', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
    for (let i = 0; i < 3; i++) await createConversation(h, { channel: i === 0 ? 'sms' : 'chat' })
  })
  after(() => h.close())

  it('lists the same conversations, filters and cursors as GET /inbox/conversations', async () => {
    const inbox = json(await h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=2' }))
    const pub = json(await h.request({ method: 'GET', url: '/v2/conversations?limit=2' }))
    assert.deepEqual(pub, inbox)
    const next = await h.request({ method: 'GET', url: `/v2/conversations?limit=2&cursor=${inbox.next_cursor}` })
    assert.equal(json(next).data.length, 1)
    const sms = json(await h.request({ method: 'GET', url: '/v2/conversations?channel=sms' }))
    assert.equal(sms.data.length, 1)
  })

  it('honours the version pin and rejects invalid filters with 422', async () => {
    const old = json(await h.request({ method: 'GET', url: '/v2/conversations', headers: { 'svc-api-version': '2.3.0' } }))
    assert.equal(typeof old.data[0].lead_score, 'number')
    assertProblem(await h.request({ method: 'GET', url: '/v2/conversations?status=archived' }), 422, 'validation_failed')
  })

  it('is listed in the OpenAPI document with the spec operationId and scope', async () => {
    const doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
    const op = doc.paths['/conversations'].get
    assert.equal(op.operationId, 'listPublicConversations')
    assert.equal(op['x-required-scope'], 'conversations:read')
  })

  it('requires a key with conversations:read and shows other workspaces nothing', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/conversations' })
    assert.deepEqual(json(await h.request({ method: 'GET', url: '/v2/conversations', key: h.b.live })).data, [])
  })
})
