// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { maskOutput } from './guardrails.js'
import { DEFAULT_GUARDRAILS, type BotGuardrailsT } from './guardrails.schemas.js'
import { guardedPieces, safeCut } from './guardrails.stream.js'

const cfg = (over: Partial<BotGuardrailsT> = {}): BotGuardrailsT => ({ ...DEFAULT_GUARDRAILS, ...over })

/** Streams `text` in pieces of `size` characters and returns what the reader saw, piece by piece. */
function streamed(c: BotGuardrailsT, text: string, size: number): string[] {
  const seen: string[] = []
  const g = guardedPieces(c, (t) => seen.push(t))
  for (let i = 0; i < text.length; i += size) g.push(text.slice(i, i + size))
  g.end()
  return seen
}

describe('guardedPieces: a streamed reply through the guardrails that judge a part', () => {
  const reply = 'Call us on +44 20 7946 0958 or write to jane.doe@example.com any day. Your card 4111 1111 1111 1111 is on file.'

  it('masks personal data split across any pieces exactly as the whole reply is masked', () => {
    const c = cfg()
    const whole = maskOutput(c, reply).text
    assert.match(whole, /\[phone\]/)
    assert.match(whole, /\[email\]/)
    assert.match(whole, /\[card\]/)
    for (const size of [1, 2, 3, 5, 7, 11, 200]) {
      const seen = streamed(c, reply, size)
      assert.equal(seen.join(''), whole, `pieces of ${size}`)
      for (const piece of seen) assert.doesNotMatch(piece, /jane|7946|1111/, `pieces of ${size}: ${JSON.stringify(seen)}`)
    }
  })

  it('still streams word by word where nothing is held back', () => {
    const seen = streamed(cfg(), 'Delivery takes two to four working days in France.', 3)
    assert.ok(seen.length >= 5, JSON.stringify(seen))
    assert.equal(seen.join(''), 'Delivery takes two to four working days in France.')
  })

  it('masks a blocked term of several words and profanity across pieces', () => {
    const c = cfg({ blocked_terms: ['acme corp'], profanity_filter: true })
    const text = 'Unlike Acme Corp we ship fast, no shit.'
    const seen = streamed(c, text, 2)
    assert.equal(seen.join(''), maskOutput(c, text).text)
    assert.doesNotMatch(seen.join(''), /Acme|shit/)
  })

  it('stops showing pieces at a blocked topic, and at max_reply_length', () => {
    const topic = cfg({ blocked_topics: [{ name: 'legal', keywords: ['lawsuit'] }] })
    const seen = streamed(topic, 'We can talk about it. A lawsuit would be the next step for you.', 4)
    assert.doesNotMatch(seen.join(''), /lawsuit|next step/)
    const short = streamed(cfg({ max_reply_length: 20 }), 'Delivery takes two to four working days in France.', 4)
    assert.ok(short.join('').length <= 20, JSON.stringify(short))
  })

  it('safeCut holds back a number in progress and the words a blocked term may still need', () => {
    assert.equal(safeCut('Call 030 1234 ', 1), 'Call '.length)
    assert.equal(safeCut('Two days. Then ', 1), 'Two days. Then '.length)
    assert.equal(safeCut('We are not Acme ', 2), 'We are not '.length)
    assert.equal(safeCut('partial', 1), 0)
  })
})
