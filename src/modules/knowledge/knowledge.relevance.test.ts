import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../test/helpers.js'
import { proseFactor } from './knowledge-boilerplate.js'
import { ANSWERED_THRESHOLD, isAnswered } from './knowledge.relevance.js'
import { addDocument, createBase, searchOk, startApp, waitFor } from './knowledge.search.testkit.js'

// One notion of "answered" (issue 32): the calibrated score of search results, the gaps and `answer: true`
// agree, off-topic questions are declined even when they share a word with a title, and a help centre's
// index page of links ranks below the passage it links to.
const HOW_REFUNDS_WORK = {
  title: 'How refunds work',
  text: 'We refund any purchase within 14 days of delivery. Once we receive the parcel, the refund is paid back to the original card within five working days.',
}
const INDEX_PAGE = {
  title: 'Refunds help centre',
  content_type: 'text/markdown',
  text:
    '# Refunds help centre\n\n- [Refunds](/refunds)\n- [How refunds work](/refunds/how)\n- [Refund timing](/refunds/timing)\n' +
    '- [Request a refund](/refunds/request)\n- [Refunds for annual plans](/refunds/annual)\n- [Refund to a gift card](/refunds/gift-card)\n- [Contact us](/contact)\n',
}
const HOURS = {
  title: 'Opening hours',
  text: 'Our support team answers Monday to Friday, from 9:00 to 17:00 CET, by chat and by e-mail. Opening hours on public holidays are announced a week before.',
}
const SHIPPING = { title: 'Shipping times', text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.' }

describe('calibrated relevance: one threshold for search, gaps and answers', () => {
  let h: TestApp
  let kb: any
  let docs: Record<string, any>
  before(async () => {
    h = await startApp()
    kb = await createBase(h, { name: 'Shop help', language: 'en' })
    docs = {
      how: await addDocument(h, kb.id, HOW_REFUNDS_WORK),
      index: await addDocument(h, kb.id, INDEX_PAGE),
      hours: await addDocument(h, kb.id, HOURS),
      shipping: await addDocument(h, kb.id, SHIPPING),
    }
    for (const d of Object.values(docs)) assert.equal(d.status, 'ready', JSON.stringify(d))
  })
  after(() => h.close())

  it('the threshold is one number, and isAnswered compares with it', () => {
    assert.ok(ANSWERED_THRESHOLD > 0 && ANSWERED_THRESHOLD < 1)
    assert.equal(isAnswered(ANSWERED_THRESHOLD), true)
    assert.equal(isAnswered(ANSWERED_THRESHOLD - 0.0001), false)
  })

  it('an index page of links ranks below the passage that answers a refund question', async () => {
    // One word the index page repeats in its title and every link: without its prose factor it would win.
    const one = await searchOk(h, { query: 'refunds', knowledge_base_ids: [kb.id], top_k: 10 })
    assert.deepEqual(
      one.results.slice(0, 2).map((x: any) => x.citation.document_id),
      [docs.how.id, docs.index.id],
    )
    const r = await searchOk(h, { query: 'When is my refund paid back to my card?', knowledge_base_ids: [kb.id], top_k: 10 })
    const order = r.results.map((x: any) => x.citation.document_id)
    assert.equal(order[0], docs.how.id, JSON.stringify(r.results))
    const at = order.indexOf(docs.index.id)
    assert.ok(at === -1 || at > 0)
    if (at > 0) assert.ok(r.results[at].score < r.results[0].score)
    assert.ok(isAnswered(r.results[0].score), String(r.results[0].score))
    assert.equal(r.gap, null)
  })

  it('an answered question is answered grounded, with no gap', async () => {
    const r = await searchOk(h, { query: 'How long does delivery take to France?', knowledge_base_ids: [kb.id], answer: true })
    assert.ok(isAnswered(r.results[0].score))
    assert.equal(r.gap, null)
    assert.equal(r.answer.grounded, true)
  })

  for (const question of ['What are the opening hours of the Louvre museum in Paris?', 'Can you recommend a good pizza place?', 'How long should I boil an egg?']) {
    it(`declines an off-topic question, even one sharing a title's word: "${question}"`, async () => {
      const r = await searchOk(h, { query: question, knowledge_base_ids: [kb.id], answer: true })
      const best = r.results[0]?.score ?? 0
      assert.equal(isAnswered(best), false, `best ${best}`)
      // The same threshold: a gap is recorded, and the answer is not grounded.
      assert.ok(r.gap?.id, JSON.stringify(r))
      assert.equal(r.answer.grounded, false)
      assert.deepEqual(r.answer.citations, [])
      const gaps = await waitFor(h, '/v2/knowledge/gaps?status=open', (b) => b.data.some((g: any) => g.id === r.gap.id))
      assert.ok(gaps.data.find((g: any) => g.id === r.gap.id).best_score < ANSWERED_THRESHOLD)
    })
  }

  it('the prose factor: a list of link titles is boilerplate; prose, code and short texts are not', () => {
    assert.equal(proseFactor('Refunds\nHow refunds work\nRefund timing\nRequest a refund\nContact us'), 0.4)
    assert.equal(proseFactor(HOW_REFUNDS_WORK.text), 1)
    assert.equal(proseFactor('const a = 1\nconst b = 2\nfoo(a, b)\nbar()'), 1)
    assert.equal(proseFactor('Pricing\nContact'), 1)
    const mixed = proseFactor('Refunds\nRefund timing\nContact us\nWe refund any purchase within 14 days of delivery, no questions asked.')
    assert.ok(mixed > 0.4 && mixed < 1, String(mixed))
  })
})
