import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, events, knowledgeApp, newBase, paragraphs } from '../knowledge.test-support.js'

describe('deleteKnowledgeBase (DELETE /knowledge/bases/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const del = (id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/knowledge/bases/${id}`, ...(key ? { key } : {}) })
  const rows = async (table: 'knowledge_documents' | 'knowledge_chunks', kbId: string) =>
    (await h.app.kernel.db.selectFrom(table).select('id').where('knowledge_base_id', '=', kbId).execute()).length

  it('deletes a small base with its documents and chunks at once', async () => {
    const kb = await newBase(h)
    const doc = await addText(h, kb.id, { title: 'Refunds', text: paragraphs(3) })
    const r = await del(kb.id)
    assert.equal(r.statusCode, 200, r.body)
    assert.deepEqual(json(r), { id: kb.id, object: 'knowledge_base', deleted: true })
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` }), 404)
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}` }), 404)
    assert.equal(await rows('knowledge_documents', kb.id), 0)
    assert.equal(await rows('knowledge_chunks', kb.id), 0)
    assert.equal((await events(h, 'knowledge_base.deleted', kb.id)).length, 1)
    assertProblem(await del(kb.id), 404, 'resource_not_found')
  })

  it('answers 404 at once for a large base and empties it in the background', async () => {
    const kb = await newBase(h, { chunking: { size: 200, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Large', text: paragraphs(2100) })
    assert.equal(doc.status, 'ready')
    assert.ok(doc.chunk_count > 2000, `${doc.chunk_count} chunks`)
    assert.equal((await del(kb.id)).statusCode, 200)
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` }), 404)
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}` }), 404)
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}/documents` }), 404)
    const baseRow = () => h.app.kernel.db.selectFrom('knowledge_bases').select('id').where('id', '=', kb.id).executeTakeFirst()
    const until = Date.now() + 30_000
    while ((await baseRow()) && Date.now() < until) await new Promise((res) => setTimeout(res, 100))
    assert.equal(await baseRow(), undefined)
    assert.equal(await rows('knowledge_chunks', kb.id), 0)
    assert.equal(await rows('knowledge_documents', kb.id), 0)
  })

  it('answers 404 for another workspace’s base and leaves it alone', async () => {
    const theirs = await newBase(h, {}, h.b.live)
    assertProblem(await del(theirs.id), 404, 'resource_not_found')
    assert.equal((await h.request({ method: 'GET', url: `/v2/knowledge/bases/${theirs.id}`, key: h.b.live })).statusCode, 200)
  })
})
