import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, knowledgeApp, newBase, uploadForm } from '../knowledge.testkit.js'

describe('listKnowledgeDocuments (GET /knowledge/bases/{id}/documents)', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const list = (kbId: string, q = '', key?: string) => h.request({ method: 'GET', url: `/v2/knowledge/bases/${kbId}/documents${q}`, ...(key ? { key } : {}) })

  it('lists the base’s documents newest first, filtered by status, page by page', async () => {
    const kb = await newBase(h)
    const other = await newBase(h, { name: 'Other' })
    const a = await addText(h, kb.id, { title: 'A', text: 'Alpha text about shipping.' })
    const b = await addText(h, kb.id, { title: 'B', text: 'Beta text about returns.' })
    await addText(h, other.id, { title: 'Elsewhere', text: 'Not in this base.' })
    const r = await uploadForm(h, kb.id, [{ name: 'file', filename: 'broken.pdf', contentType: 'application/pdf', data: 'not a pdf at all' }])
    assert.equal(r.statusCode, 202, r.body)
    const until = Date.now() + 20_000
    let failed: any[] = []
    while (failed.length === 0 && Date.now() < until) {
      failed = json(await list(kb.id, '?status=failed')).data
      await new Promise((res) => setTimeout(res, 50))
    }
    assert.deepEqual(
      failed.map((d: any) => d.id),
      [json(r).id],
    )
    const ready = json(await list(kb.id, '?status=ready'))
    assert.deepEqual(
      ready.data.map((d: any) => d.id),
      [b.id, a.id],
    )
    const page1 = json(await list(kb.id, '?limit=2'))
    assert.equal(page1.data.length, 2)
    assert.equal(page1.has_more, true)
    const page2 = json(await list(kb.id, `?limit=2&cursor=${page1.next_cursor}`))
    assert.deepEqual(
      page2.data.map((d: any) => d.id),
      [a.id],
    )
    // A cursor is bound to its filters and base.
    assertProblem(await list(kb.id, `?limit=2&status=ready&cursor=${page1.next_cursor}`), 422, 'invalid_cursor')
    assertProblem(await list(other.id, `?limit=2&cursor=${page1.next_cursor}`), 422, 'invalid_cursor')
    assert.equal(ready.data[0].object, 'knowledge_document')
    assert.equal('text' in ready.data[0], false)
  })

  it('answers 404 for an unknown or foreign base and 422 for an unknown status', async () => {
    assertProblem(await list('kb_00000000000000000000000000'), 404, 'resource_not_found')
    const theirs = await newBase(h, {}, h.b.live)
    assertProblem(await list(theirs.id), 404, 'resource_not_found')
    const kb = await newBase(h)
    assertProblem(await list(kb.id, '?status=done'), 422, 'validation_failed')
  })
})
