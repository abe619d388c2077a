import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, knowledgeApp, newBase, paragraphs } from '../knowledge.testkit.js'

describe('getKnowledgeBase (GET /knowledge/bases/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const get = (id: string, key?: string) => h.request({ method: 'GET', url: `/v2/knowledge/bases/${id}`, ...(key ? { key } : {}) })

  it('returns the base with its document and chunk counts kept up to date', async () => {
    const kb = await newBase(h, { chunking: { size: 300, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Refunds', text: paragraphs(6) })
    assert.equal(doc.status, 'ready')
    const got = json(await get(kb.id))
    assert.equal(got.document_count, 1)
    assert.equal(got.chunk_count, doc.chunk_count)
    assert.ok(got.chunk_count > 1)
  })

  it('answers 404 for an unknown id, another workspace’s base and the other mode', async () => {
    assertProblem(await get('kb_00000000000000000000000000'), 404, 'resource_not_found')
    const theirs = await newBase(h, {}, h.b.live)
    assertProblem(await get(theirs.id), 404, 'resource_not_found')
    const mine = await newBase(h)
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/knowledge/bases/${mine.id}`, key: h.a.test }), 404, 'resource_not_found')
  })
})
