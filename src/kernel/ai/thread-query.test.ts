// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pino from 'pino'
import { loadConfig } from '../../config.js'
import { createAiEngine, type AiSource } from './ai.js'
import { proseQuality, rankByRelevance } from './ranker.js'
import { threadQuery } from './thread-query.js'

export const REFUND_EMAIL = `Hi there,

I ordered a pair of wireless headphones from your shop last month (order #48213) and the left side stopped working after a week. I sent them back with the prepaid label on the 3rd and the tracking says you received them.
When will I get my refund? It has been ten days and I haven't seen the money on my card yet.

Thanks,
Maria Lopez
Sent from my phone`

const INDEX_PAGE = [
  'Help centre',
  '[Shipping and delivery](https://help.example.com/shipping)',
  '[Returns and refunds](https://help.example.com/refunds)',
  '[Orders and tracking](https://help.example.com/orders)',
  '[Payment methods and cards](https://help.example.com/payments)',
  '[Warranty and repairs](https://help.example.com/warranty)',
  '[Contact us](https://help.example.com/contact)',
].join('\n')

const sources: AiSource[] = [
  {
    kind: 'template',
    id: 'tpl_refund',
    title: 'Refund timing',
    text: 'Once your return reaches us we refund the original payment method within 3 business days; your bank may take 5 to 10 days to show it.',
  },
  { kind: 'template', id: 'tpl_hours', title: 'Opening hours', text: 'Our support team answers Monday to Friday, 9:00 to 17:00 CET.' },
  { kind: 'template', id: 'tpl_price', title: 'Pricing', text: 'The Pro plan costs 49 EUR per seat and month.' },
  { kind: 'passage', id: 'chk_index', title: 'Help centre', text: INDEX_PAGE },
]

describe('ai: drafts choose by the conversation (thread-query.ts, rankByRelevance)', () => {
  it('reads an e-mail by its asking sentence: no greeting, order number or signature in the question', () => {
    const q = threadQuery([{ role: 'customer', text: REFUND_EMAIL }])
    assert.equal(q.text, 'When will I get my refund?')
    assert.deepEqual(
      q.question.map((t) => t.term),
      ['refund'],
    )
    const context = q.context.map((t) => t.term)
    assert.ok(context.includes('headphon') && context.includes('card'), context.join(' '))
    // Greeting, order number and signature (name, "Sent from my phone") are not read.
    for (const gone of ['hi', 'maria', 'lopez', 'phone', '48213']) assert.ok(!context.includes(gone), gone)
    assert.ok(q.context.every((t) => t.weight < 1))
  })

  it('weights earlier customer messages less, and a message of thanks does not replace the question', () => {
    const q = threadQuery([
      { role: 'customer', text: 'I want a refund for my purchase, please.' },
      { role: 'agent', text: 'Sure, we are on it.' },
      { role: 'customer', text: 'Also, what are your opening hours on Friday?' },
      { role: 'customer', text: 'Thanks!' },
    ])
    assert.deepEqual(q.question.map((t) => t.term).sort(), ['friday', 'hour', 'open'])
    assert.deepEqual(q.context, [
      { term: 'refund', weight: 0.5 },
      { term: 'purchase', weight: 0.5 },
    ])
  })

  it('ranks a link list low whatever it matches, prose at full weight', () => {
    assert.equal(proseQuality(INDEX_PAGE), 0.2)
    assert.equal(proseQuality('Shipping\nReturns\nOrders\nPayments\nWarranty\nAccount'), 0.2)
    assert.equal(proseQuality(sources[0].text), 1)
    // Without any caller relevance (no knowledge module), the template that answers beats the index page.
    const ranked = rankByRelevance(threadQuery([{ role: 'customer', text: REFUND_EMAIL }]), sources)
    assert.deepEqual(
      ranked.map((r) => r.source.id),
      ['tpl_refund', 'chk_index'],
    )
    assert.ok(ranked[0].relevance >= 0.5 && ranked[1].relevance < 0.25, JSON.stringify(ranked.map((r) => r.relevance)))
  })

  it("puts templates and passages on one scale: a passage's calibrated score caps it, the best kind wins", () => {
    const q = threadQuery([{ role: 'customer', text: REFUND_EMAIL }])
    const passage = {
      kind: 'passage' as const,
      id: 'chk_refund',
      title: 'How refunds work',
      text: 'We refund the original payment method once the return arrives; the money shows on your card within 10 days.',
    }
    const strong = rankByRelevance(q, [...sources.slice(1), { ...passage, relevance: 0.9 }])
    assert.equal(strong[0].source.id, 'chk_refund')
    const weak = rankByRelevance(q, [...sources, { ...passage, relevance: 0.61 }])
    assert.deepEqual(
      weak.slice(0, 2).map((r) => [r.source.id, r.relevance <= 0.61 || r.source.kind === 'template']),
      [
        ['tpl_refund', true],
        ['chk_refund', true],
      ],
    )
  })

  it('builtin engine: the refund e-mail drafts from the refund template; a changed topic drafts for the latest message', async () => {
    const engine = createAiEngine(loadConfig({}).ai, pino({ level: 'silent' }))
    const email = await engine.generate({ task: 'Draft.', transcript: [{ role: 'customer', text: REFUND_EMAIL, id: 'msg_1' }], sources })
    assert.equal(email.sources[0].id, 'tpl_refund')
    assert.equal(email.grounded, true)
    assert.ok(!email.sources.some((s) => s.id === 'chk_index'), JSON.stringify(email.sources))
    const oneLine = await engine.generate({ task: 'Draft.', transcript: [{ role: 'customer', text: 'How much is the Pro plan per seat?' }], sources })
    assert.equal(oneLine.sources[0].id, 'tpl_price')
    const moved = await engine.generate({
      task: 'Draft.',
      transcript: [
        { role: 'customer', text: REFUND_EMAIL },
        { role: 'agent', text: 'Your refund is on its way.' },
        { role: 'customer', text: 'Great. Are you open on Friday afternoon?' },
      ],
      sources,
    })
    assert.equal(moved.sources[0].id, 'tpl_hours')
    // Below the caller's "answered" the engine says so instead of drafting from a weak match.
    assert.ok(moved.sources[0].score < 0.9, String(moved.sources[0].score)) // "afternoon" is in no source
    const strict = await engine.generate({ task: 'Draft.', transcript: [{ role: 'customer', text: 'Are you open on Friday afternoon?' }], sources, minRelevance: 0.9 })
    assert.equal(strict.grounded, false)
    assert.equal(strict.confidence, 0)
  })
})
