import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, knowledgeApp, newBase } from '../knowledge.testkit.js'

describe('listKnowledgeBases (GET /knowledge/bases)', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())

  it('lists the workspace’s bases newest first, page by page', async () => {
    const made = []
    for (const name of ['One', 'Two', 'Three']) made.push(await newBase(h, { name }))
    await newBase(h, { name: 'Other workspace' }, h.b.live)
    const first = json(await h.request({ method: 'GET', url: '/v2/knowledge/bases?limit=2' }))
    assert.deepEqual(
      first.data.map((b: any) => b.name),
      ['Three', 'Two'],
    )
    assert.equal(first.has_more, true)
    const second = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases?limit=2&cursor=${first.next_cursor}` }))
    assert.deepEqual(
      second.data.map((b: any) => b.name),
      ['One'],
    )
    assert.equal(second.has_more, false)
    assert.equal(second.next_cursor, null)
  })

  it('leaves out a deleted base at once', async () => {
    const kb = await newBase(h, { name: 'Doomed' })
    assert.equal((await h.request({ method: 'DELETE', url: `/v2/knowledge/bases/${kb.id}` })).statusCode, 200)
    const list = json(await h.request({ method: 'GET', url: '/v2/knowledge/bases?limit=100' }))
    assert.ok(!list.data.some((b: any) => b.id === kb.id))
  })

  it('refuses a cursor of another list', async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/knowledge/bases?cursor=bm9wZQ' }), 422, 'invalid_cursor')
  })

  it('works with read', async () => {
    assert.equal((await h.request({ method: 'GET', url: '/v2/knowledge/bases', key: await h.key(['read']) })).statusCode, 200)
  })
})
