import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, events, knowledgeApp, newBase, paragraphs } from '../knowledge.testkit.js'

describe('deleteKnowledgeBase (DELETE /knowledge/bases/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const del = (id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/knowledge/bases/${id}`, ...(key ? { key } : {}) })
  const rows = async (table: 'knowledge_documents' | 'knowledge_chunks', kbId: string) => (await h.app.kernel.db.selectFrom(table).select('id').where('knowledge_base_id', '=', kbId).execute()).length
  /** A question none of `kbIds` answers: it opens (or joins) a gap asked of them. */
  const gapOf = async (query: string, kbIds: string[]): Promise<string> => {
    const r = await h.request({ method: 'POST', url: '/v2/knowledge/search', payload: { query, knowledge_base_ids: kbIds } })
    assert.equal(r.statusCode, 200, r.body)
    assert.ok(json(r).gap, `no gap for ${query}`)
    return json(r).gap.id
  }
  const gapRow = (id: string) => h.app.kernel.db.selectFrom('knowledge_gaps').select('knowledge_base_ids').where('id', '=', id).executeTakeFirst()
  const gapTerms = async (id: string) => (await h.app.kernel.db.selectFrom('knowledge_gap_terms').select('term').where('gap_id', '=', id).execute()).length

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

  it('detaches the base from its gaps: a gap asked of no other base goes, the others keep their other bases', async () => {
    const kb = await newBase(h)
    const other = await newBase(h)
    await addText(h, kb.id, { title: 'Refunds', text: paragraphs(2) })
    const only = await gapOf('Which carrier delivers parcels to Iceland?', [kb.id])
    const shared = await gapOf('Can invoices be exported to spreadsheets?', [kb.id, other.id])
    const elsewhere = await gapOf('Do you sell gift vouchers for birthdays?', [other.id])
    assert.ok((await gapTerms(only)) > 0)
    assert.equal((await del(kb.id)).statusCode, 200)
    assert.equal(await gapRow(only), undefined)
    assert.equal(await gapTerms(only), 0)
    assert.deepEqual(JSON.parse((await gapRow(shared))!.knowledge_base_ids), [other.id])
    assert.deepEqual(JSON.parse((await gapRow(elsewhere))!.knowledge_base_ids), [other.id])
    const listed = json(await h.request({ method: 'GET', url: '/v2/knowledge/gaps?limit=100' })).data.map((g: any) => g.id)
    assert.ok(!listed.includes(only) && listed.includes(shared) && listed.includes(elsewhere))
  })

  it('answers 404 at once for a large base and empties it in the background', async () => {
    const kb = await newBase(h, { chunking: { size: 200, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Large', text: paragraphs(2100) })
    assert.equal(doc.status, 'ready')
    assert.ok(doc.chunk_count > 2000, `${doc.chunk_count} chunks`)
    const gap = await gapOf('Which carrier delivers parcels to Greenland?', [kb.id])
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
    assert.equal(await gapRow(gap), undefined)
  })

  it('answers 404 for another workspace’s base and leaves it alone', async () => {
    const theirs = await newBase(h, {}, h.b.live)
    assertProblem(await del(theirs.id), 404, 'resource_not_found')
    assert.equal((await h.request({ method: 'GET', url: `/v2/knowledge/bases/${theirs.id}`, key: h.b.live })).statusCode, 200)
  })
})
