import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, knowledgeApp, newBase } from '../knowledge.testkit.js'

describe('getKnowledgeDocument (GET /knowledge/documents/{id})', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const get = (id: string, q = '', key?: string) => h.request({ method: 'GET', url: `/v2/knowledge/documents/${id}${q}`, ...(key ? { key } : {}) })

  const markdown = [
    '# Billing',
    'We bill monthly.',
    '## Refunds',
    'Refunds are paid within 14 days to the original card.',
    '## Invoices',
    'Invoices are sent by email on the first day of the month.',
  ].join('\n\n')

  it('returns the document; include=chunks,text gives chunks whose offsets point at their text', async () => {
    const kb = await newBase(h, { chunking: { size: 200, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Billing', text: markdown, content_type: 'text/markdown', metadata: { team: 'billing' } })
    assert.equal(doc.status, 'ready')
    assert.equal(doc.format, 'markdown')
    assert.equal(doc.origin, 'api')
    assert.deepEqual(doc.metadata, { team: 'billing' })
    assert.equal(doc.chunks, undefined)
    assert.equal(doc.text, undefined)
    const full = json(await get(doc.id, '?include=chunks,text'))
    assert.ok(full.chunks.length >= 2)
    for (const c of full.chunks) {
      assert.match(c.id, /^chk_/)
      assert.equal(full.text.slice(c.start, c.end), c.text)
      assert.equal(c.page, null)
    }
    const refunds = full.chunks.find((c: any) => c.text.includes('14 days'))
    assert.deepEqual(refunds.heading_path, ['Billing', 'Refunds'])
    assert.deepEqual(
      full.chunks.map((c: any) => c.position),
      full.chunks.map((_: unknown, i: number) => i),
    )
    const onlyChunks = json(await get(doc.id, '?include=chunks'))
    assert.equal(onlyChunks.text, undefined)
    assert.equal(onlyChunks.chunks.length, full.chunks.length)
  })

  it('answers 404 for unknown, foreign and sandbox ids, and 422 for an unknown include', async () => {
    const kb = await newBase(h)
    const doc = await addText(h, kb.id, { title: 'T', text: 'Some text.' })
    assertProblem(await get('doc_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(doc.id, '', h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/knowledge/documents/${doc.id}`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await get(doc.id, '?include=everything'), 422, 'validation_failed')
  })
})
