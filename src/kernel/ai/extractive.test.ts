// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { AiSource } from './ai.types.js'
import { asksForSteps, extractiveAnswer, isHeadingLine, unitsOf } from './extractive.js'

const passage = (id: string, title: string, text: string): AiSource => ({ kind: 'passage', id, title, text })
const SHIPPING = passage(
  'chk_ship',
  'Shipping',
  '# Shipping\n\nStandard shipping takes 3-5 business days. Express shipping arrives the next day. We ship to 40 countries.\n\nShipping Costs\n\nShipping is free on orders above $50.',
)
const RSYNC = passage('chk_rsync', 'rsync(1)', 'RSYNC OPTIONS\n\nThe --bwlimit option limits the bandwidth of\nfiles sent over a slow link; shipping them takes longer over ssh.')
const PASSWORD = passage(
  'chk_pw',
  'Reset your password',
  'Reset your password\n\nYou can reset your password from the sign-in page. To reset it:\n1. Open the sign-in page.\n2. Click "Forgot password".\n3. Follow the link we email you.\n\nThe link expires after 24 hours.',
)
const sentences = (content: string) => [...new Intl.Segmenter('en', { granularity: 'sentence' }).segment(content.replace(/ \[\d+\]$/, ''))].length

describe('extractiveAnswer', () => {
  it('answers with one to three sentences of the best passage only, cited once, never a heading', () => {
    for (const passages of [
      [SHIPPING, RSYNC],
      [RSYNC, SHIPPING],
    ]) {
      const a = extractiveAnswer('How long does standard shipping take?', passages)
      const at = passages.indexOf(SHIPPING)
      assert.equal(a.content, 'Standard shipping takes 3-5 business days. [1]')
      assert.deepEqual(a.cited, [at])
      assert.deepEqual(
        a.sources.map((s) => s.id),
        ['chk_ship'],
      )
      assert.ok(a.grounded)
    }
    const costs = extractiveAnswer('What does shipping cost abroad?', [SHIPPING, RSYNC])
    assert.ok(sentences(costs.content) >= 1 && sentences(costs.content) <= 3, costs.content)
    assert.doesNotMatch(costs.content, /Shipping Costs|# |rsync|bwlimit/)
    assert.equal(costs.content.match(/\[\d\]/g)?.length, 1)
  })

  it('keeps the steps whole when the question asks for them, and answers a yes/no question in a sentence or two', () => {
    const how = extractiveAnswer('How do I reset my password?', [PASSWORD, SHIPPING])
    assert.equal(how.content, 'You can reset your password from the sign-in page. To reset it:\n1. Open the sign-in page.\n2. Click "Forgot password".\n3. Follow the link we email you. [1]')
    const expires = extractiveAnswer('Does the reset link expire?', [PASSWORD])
    assert.match(expires.content, /The link expires after 24 hours\. \[1\]$/)
    assert.doesNotMatch(expires.content, /Reset your password\b(?! from)|\n1\./)
  })

  it('reads hard-wrapped lines as one sentence', () => {
    const wrapped = passage('chk_man', 'tar(1)', 'The --verbose option lists the files\nprocessed, one per line, while the archive\nis written.')
    assert.equal(extractiveAnswer('What does the verbose option list?', [wrapped]).content, 'The --verbose option lists the files processed, one per line, while the archive is written. [1]')
  })

  it('says nothing below the relevance bar', () => {
    assert.equal(extractiveAnswer('Is the parrot asleep?', [SHIPPING, PASSWORD]).grounded, false)
  })
})

describe('reading a passage', () => {
  it('tells headings from sentences', () => {
    for (const h of ['# Refunds', 'Refund Timing', 'Shipping costs', 'How Refunds Work For Gift Cards']) assert.ok(isHeadingLine(h), h)
    for (const s of ['Refunds take five days.', 'Call us at 555-0100 any time of the day or night please', '1. Open the page', 'Click Save:']) assert.ok(!isHeadingLine(s), s)
    assert.ok(isHeadingLine('Delivery', ['Delivery']))
  })

  it('leaves out headings and heading paths run into the text, and keeps list items as units', () => {
    const units = unitsOf('Opening hours\n\nOpening hours We open at nine. We close at six.\n- Saturday: 10 to 2\n- Sunday: closed', ['Opening hours'])
    assert.deepEqual(
      units.map((u) => [u.text, u.item]),
      [
        ['We open at nine.', false],
        ['We close at six.', false],
        ['- Saturday: 10 to 2', true],
        ['- Sunday: closed', true],
      ],
    )
  })

  it('knows a question that asks for steps', () => {
    for (const q of ['How do I reset my password?', 'What are the steps to export data?', 'how to cancel an order']) assert.ok(asksForSteps(q), q)
    for (const q of ['How long do refunds take?', 'Is shipping free?']) assert.ok(!asksForSteps(q), q)
  })
})
