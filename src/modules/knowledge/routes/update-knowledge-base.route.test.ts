import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, events, knowledgeApp, newBase, paragraphs, processed } from '../knowledge.testkit.js'

describe('updateKnowledgeBase (PATCH /knowledge/bases/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const patch = (id: string, payload: Record<string, unknown>, key?: string) => h.request({ method: 'PATCH', url: `/v2/knowledge/bases/${id}`, payload, ...(key ? { key } : {}) })

  it('renames and re-describes without touching the documents', async () => {
    const kb = await newBase(h)
    const r = await patch(kb.id, { name: 'Renamed', description: 'New text', metadata: { a: 'b' } })
    assert.equal(r.statusCode, 200, r.body)
    const updated = json(r)
    assert.equal(updated.name, 'Renamed')
    assert.equal(updated.description, 'New text')
    assert.deepEqual(updated.metadata, { a: 'b' })
    assert.ok(updated.updated_at >= kb.updated_at)
    assert.equal(json(await patch(kb.id, { description: null })).description, null)
    assert.deepEqual(await events(h, 'knowledge_base.updated', kb.id).then((e) => e.map((x) => x.name)), ['Renamed', 'Renamed'])
  })

  it('re-processes every ready document with new chunking, in the background', async () => {
    const kb = await newBase(h, { chunking: { size: 2000, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Refunds', text: paragraphs(20) })
    const before = doc.chunk_count
    const r = await patch(kb.id, { chunking: { size: 300, overlap: 50 } })
    assert.equal(r.statusCode, 200, r.body)
    assert.deepEqual(json(r).chunking, { size: 300, overlap: 50 })
    // The job re-chunks from the stored text: wait until the new chunk count shows.
    const until = Date.now() + 20_000
    let now = await processed(h, doc.id, undefined, 'chunks,text')
    while (now.chunk_count === before && Date.now() < until) {
      await new Promise((res) => setTimeout(res, 50))
      now = await processed(h, doc.id, undefined, 'chunks,text')
    }
    assert.ok(now.chunk_count > before, `${now.chunk_count} chunks after, ${before} before`)
    for (const c of now.chunks) {
      assert.ok(c.text.length <= 300)
      assert.equal(now.text.slice(c.start, c.end), c.text)
    }
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` })).chunk_count, now.chunk_count)
    assert.ok((await events(h, 'knowledge_document.ready', doc.id)).length >= 2)
  })

  it('answers 422 for an overlap over half the size, and 404 for a base that is not there', async () => {
    const kb = await newBase(h)
    assertProblem(await patch(kb.id, { chunking: { size: 300, overlap: 200 } }), 422, 'validation_failed')
    assertProblem(await patch(kb.id, { language: 'xyz' }), 422, 'validation_failed')
    assertProblem(await patch('kb_00000000000000000000000000', { name: 'x' }), 404, 'resource_not_found')
    assertProblem(await patch(kb.id, { name: 'x' }, h.b.live), 404, 'resource_not_found')
  })
})
