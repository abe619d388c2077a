import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { startApp, addDocument, assertProblem, createBase, eventsFor, searchOk, waitFor } from '../knowledge.search.testkit.js'

const gaps = (h: TestApp, query = '', key?: string) => h.request({ method: 'GET', url: `/v2/knowledge/gaps${query}`, ...(key ? { key } : {}) })

describe('listKnowledgeGaps (GET /knowledge/gaps) and gap recording', () => {
  let h: TestApp
  let kb: any
  let other: any
  before(async () => {
    h = await startApp()
    kb = await createBase(h, { name: 'Help center' })
    other = await createBase(h, { name: 'Internal' })
    await addDocument(h, kb.id, { title: 'Refund policy', text: 'We refund any purchase within 14 days of delivery, no questions asked.' })
  })
  after(() => h.close())

  it('records a question the knowledge cannot answer, and groups similar questions into one gap', async () => {
    const first = await searchOk(h, { query: 'Can I pay by bank transfer?' })
    assert.ok(first.gap, 'a gap was recorded')
    assert.match(first.gap.id, /^gap_/)
    const again = await searchOk(h, { query: 'Is paying by bank transfer possible?' })
    assert.equal(again.gap?.id, first.gap.id)
    const unrelated = await searchOk(h, { query: 'How do I export invoices to Excel?', knowledge_base_ids: [other.id] })
    assert.ok(unrelated.gap)
    assert.notEqual(unrelated.gap.id, first.gap.id)
    // A question the knowledge answers is no gap.
    assert.equal((await searchOk(h, { query: 'refund within 14 days' })).gap, null)

    const page = json(await gaps(h))
    assert.equal(page.object, 'list')
    const bank = page.data.find((g: any) => g.id === first.gap.id)
    assert.equal(bank.object, 'knowledge_gap')
    assert.equal(bank.question, 'Can I pay by bank transfer?')
    assert.deepEqual(bank.examples, ['Can I pay by bank transfer?', 'Is paying by bank transfer possible?'])
    assert.equal(bank.count, 2)
    assert.equal(bank.status, 'open')
    assert.ok(bank.best_score >= 0 && bank.best_score < 0.5)
    assert.deepEqual(bank.knowledge_base_ids, [kb.id, other.id].sort())
    assert.ok(bank.first_seen_at <= bank.last_seen_at)
    const opened = await eventsFor(h, 'knowledge_gap.opened', bank.id)
    assert.equal(opened.length, 1)
    assert.equal(opened[0].question, bank.question)
  })

  it('orders by recency or by count, pages with cursors, and filters by status and base', async () => {
    const recent = json(await gaps(h, '?order=recent'))
    assert.equal(recent.data[0].question, 'How do I export invoices to Excel?')
    const byCount = json(await gaps(h, '?order=count&limit=1'))
    assert.equal(byCount.data[0].question, 'Can I pay by bank transfer?')
    assert.equal(byCount.has_more, true)
    const next = json(await gaps(h, `?order=count&limit=1&cursor=${byCount.next_cursor}`))
    assert.equal(next.data.length, 1)
    assert.notEqual(next.data[0].id, byCount.data[0].id)
    // A cursor is bound to its order.
    assertProblem(await gaps(h, `?order=recent&limit=1&cursor=${byCount.next_cursor}`), 422, 'invalid_cursor')
    // The bank question was asked of every base, the Excel one of `other` only.
    const ofKb = json(await gaps(h, `?knowledge_base_id=${kb.id}`))
    assert.deepEqual(
      ofKb.data.map((g: any) => g.question),
      ['Can I pay by bank transfer?'],
    )
    const ofOther = json(await gaps(h, `?knowledge_base_id=${other.id}&order=count`))
    assert.deepEqual(
      ofOther.data.map((g: any) => g.question),
      ['Can I pay by bank transfer?', 'How do I export invoices to Excel?'],
    )
    assert.equal(json(await gaps(h, '?status=resolved')).data.length, 0)
    assertProblem(await gaps(h, '?order=loudest'), 422, 'validation_failed')
    // Another workspace and the sandbox have no gaps of A.
    assert.deepEqual(json(await gaps(h, '', h.b.live)).data, [])
    const sandbox = await h.request({ method: 'GET', url: '/sandbox/v2/knowledge/gaps', key: h.a.test })
    assert.equal(sandbox.statusCode, 200, sandbox.body)
    assert.deepEqual(json(sandbox).data, [])
  })

  it('resolves a gap by itself when a newly ready document answers it', async () => {
    const open = json(await gaps(h, '?status=open')).data.find((g: any) => g.question === 'Can I pay by bank transfer?')
    const doc = await addDocument(h, kb.id, {
      title: 'Payment methods',
      text: 'You can pay by credit card, PayPal or bank transfer. A bank transfer must reach us within 7 days.',
    })
    assert.equal(doc.status, 'ready')
    const resolved = await waitFor(h, '/v2/knowledge/gaps?status=resolved', (p) => p.data.some((g: any) => g.id === open.id))
    const gap = resolved.data.find((g: any) => g.id === open.id)
    assert.equal(gap.status, 'resolved')
    assert.equal(gap.resolved_by_document_id, doc.id)
    assert.ok(gap.best_score >= 0.5)
    assert.ok(gap.resolved_at)
    assert.equal((await eventsFor(h, 'knowledge_gap.resolved', gap.id)).length, 1)
    // The Excel question is still open: the new document does not answer it.
    assert.ok(json(await gaps(h, '?status=open')).data.some((g: any) => g.question === 'How do I export invoices to Excel?'))
    // The same question now finds its answer and records nothing.
    assert.equal((await searchOk(h, { query: 'Can I pay by bank transfer?' })).gap, null)
  })

  it('requires a key with read', async () => {
    assertProblem(await h.request({ method: 'GET', url: '/v2/knowledge/gaps', key: null }), 401)
    assertProblem(await gaps(h, '', await h.key(['bots:read'])), 403)
  })
})
