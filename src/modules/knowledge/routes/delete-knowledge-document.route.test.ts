import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, events, knowledgeApp, newBase, postDocument } from '../knowledge.testkit.js'

describe('deleteKnowledgeDocument (DELETE /knowledge/documents/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const del = (id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/knowledge/documents/${id}`, ...(key ? { key } : {}) })
  const search = async (query: string) => json(await h.request({ method: 'POST', url: '/v2/knowledge/search', payload: { query } }))

  it('removes the document, its chunks and index entries, and updates the counts', async () => {
    const kb = await newBase(h)
    const keep = await addText(h, kb.id, { title: 'Shipping', text: 'Parcels ship within two working days.' })
    const doc = await addText(h, kb.id, { title: 'Refunds', text: 'Refunds reach the original card within fourteen days.' })
    assert.ok((await search('refunds original card')).results.some((r: any) => r.citation.document_id === doc.id))
    const r = await del(doc.id)
    assert.equal(r.statusCode, 200, r.body)
    assert.deepEqual(json(r), { id: doc.id, object: 'knowledge_document', deleted: true })
    assertProblem(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}` }), 404)
    assert.ok(!(await search('refunds original card')).results.some((r: any) => r.citation.document_id === doc.id))
    const chunks = await h.app.kernel.db.selectFrom('knowledge_chunks').select('id').where('document_id', '=', doc.id).execute()
    assert.equal(chunks.length, 0)
    const base = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` }))
    assert.equal(base.document_count, 1)
    assert.equal(base.chunk_count, keep.chunk_count)
    assert.equal((await events(h, 'knowledge_document.deleted', doc.id)).length, 1)
    assertProblem(await del(doc.id), 404, 'resource_not_found')
  })

  it('lets the same bytes be uploaded again once deleted', async () => {
    const kb = await newBase(h)
    const doc = await addText(h, kb.id, { title: 'Again', text: 'The same text twice.' })
    await del(doc.id)
    const again = await postDocument(h, kb.id, { title: 'Again', text: 'The same text twice.' })
    assert.equal(again.statusCode, 202, again.body)
    assert.notEqual(json(again).id, doc.id)
  })

  it('answers 404 for another workspace’s document and leaves it alone', async () => {
    const kb = await newBase(h, {}, h.b.live)
    const theirs = await addText(h, kb.id, { title: 'Theirs', text: 'Workspace B text.' }, h.b.live)
    assertProblem(await del(theirs.id), 404, 'resource_not_found')
    assert.equal((await h.request({ method: 'GET', url: `/v2/knowledge/documents/${theirs.id}`, key: h.b.live })).statusCode, 200)
  })
})
