import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createTemplate } from '../inbox.testkit.js'

describe('listReplyTemplates (GET /inbox/templates)', () => {
  let h: TestApp
  const ids: string[] = []
  before(async () => {
    h = await createTestApp()
    for (let i = 0; i < 5; i++) ids.push((await createTemplate(h, { name: `T${i}`, content: `content ${i}` })).id)
  })
  after(() => h.close())

  it('pages newest first', async () => {
    const first = json(await h.request({ method: 'GET', url: '/v2/inbox/templates?limit=3' }))
    assert.equal(first.has_more, true)
    const second = json(await h.request({ method: 'GET', url: `/v2/inbox/templates?limit=3&cursor=${first.next_cursor}` }))
    assert.equal(second.has_more, false)
    assert.deepEqual(
      [...first.data, ...second.data].map((t: { id: string }) => t.id),
      [...ids].reverse(),
    )
  })

  it('rejects bad parameters with 422 and shows other workspaces nothing', async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/templates?limit=abc' }), 422, 'validation_failed')
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/templates?cursor=bogus' }), 422, 'invalid_cursor')
    assert.deepEqual(json(await h.request({ method: 'GET', url: '/v2/inbox/templates', key: h.b.live })).data, [])
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/inbox/templates' })
  })
})
