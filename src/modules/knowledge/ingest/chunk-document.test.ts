// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { assertChunkInvariants } from './fixtures/check-chunks.js'
import { chunkDocument, parseDocument, type ParsedDocument } from './index.js'

const md = (s: string) => parseDocument(Buffer.from(s), 'markdown')
const txt = (s: string) => parseDocument(Buffer.from(s), 'text')

const REFUNDS = [
  'Refunds are issued to the original payment method. Card refunds take five to ten business days to appear on a statement, depending on the bank.',
  'A refund can be requested within thirty days of purchase. After thirty days, the order can still be exchanged for store credit if the item is unused.',
  'Digital products are refunded only when the download link was never opened. Subscriptions are refunded for the unused part of the current period.',
].join('\n\n')

function doc(text: string, sections?: ParsedDocument['sections']): ParsedDocument {
  return { title: null, text, sections: sections ?? [{ headingPath: [], start: 0, end: text.length }], pages: null }
}

describe('chunkDocument', () => {
  it('keeps a section that fits as one chunk, and never puts two sections in one chunk', async () => {
    const d = await md(`# Help\n\nWelcome to the help centre.\n\n## Refunds\n\n${REFUNDS}\n\n## Shipping\n\nOrders leave the warehouse within two days.`)
    const chunks = chunkDocument(d, { size: 1000, overlap: 100 })
    assertChunkInvariants(d, chunks, 1000)
    assert.deepEqual(
      chunks.map((c) => c.headingPath),
      [['Help'], ['Help', 'Refunds'], ['Help', 'Shipping']],
    )
    assert.ok(chunks[1]!.text.startsWith('Refunds\n\nRefunds are issued'), 'the heading starts its section’s chunk')
    assert.ok(chunks[1]!.text.endsWith('current period.'))
  })

  it('packs whole paragraphs while they fit, then whole sentences', async () => {
    const d = await txt(REFUNDS)
    const paragraphs = REFUNDS.split('\n\n')
    const chunks = chunkDocument(d, { size: paragraphs[0]!.length + paragraphs[1]!.length + 2, overlap: 0 })
    assertChunkInvariants(d, chunks, paragraphs[0]!.length + paragraphs[1]!.length + 2)
    assert.deepEqual(
      chunks.map((c) => c.text),
      [`${paragraphs[0]}\n\n${paragraphs[1]}`, paragraphs[2]],
    )
    const small = chunkDocument(d, { size: 120, overlap: 0 })
    assertChunkInvariants(d, small, 120)
    assert.ok(
      small.every((c) => /[.!?]$/.test(c.text) || c.end === d.text.length || c.text.length > 100),
      'chunks end at sentences where one fits',
    )
    assert.ok(small.some((c) => c.text === 'Refunds are issued to the original payment method.'))
  })

  it('repeats the end of the previous chunk of the same section, from a word start', async () => {
    const d = await txt(REFUNDS)
    const chunks = chunkDocument(d, { size: 200, overlap: 60 })
    assertChunkInvariants(d, chunks, 200)
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1]!
      const c = chunks[i]!
      assert.ok(c.start < prev.end, `chunk ${i} overlaps the one before`)
      assert.ok(prev.end - c.start <= 60, `chunk ${i} repeats at most 60 characters`)
      assert.ok(c.start === 0 || /\s/.test(d.text[c.start - 1]!), `chunk ${i} starts at a word`)
    }
    const noOverlap = chunkDocument(d, { size: 200, overlap: 0 })
    for (let i = 1; i < noOverlap.length; i++) assert.ok(noOverlap[i]!.start >= noOverlap[i - 1]!.end)
  })

  it('does not overlap across sections', async () => {
    const d = await md(`## A\n\n${REFUNDS}\n\n## B\n\n${REFUNDS}`)
    const chunks = chunkDocument(d, { size: 150, overlap: 50 })
    assertChunkInvariants(d, chunks, 150)
    const firstOfB = chunks.findIndex((c) => c.headingPath[0] === 'B')
    assert.ok(chunks[firstOfB]!.text.startsWith('B\n\n'), 'the first chunk of a section starts at its heading')
    assert.ok(chunks[firstOfB]!.start >= chunks[firstOfB - 1]!.end)
  })

  it('cuts a single word longer than the chunk, and only then', () => {
    const word = 'x'.repeat(2500)
    const d = doc(`Before the long word. ${word} after it.`)
    const chunks = chunkDocument(d, { size: 1000, overlap: 100 })
    assertChunkInvariants(d, chunks, 1000)
    assert.equal(chunks[0]!.text, 'Before the long word.')
    assert.ok(chunks.some((c) => c.text.length === 1000 && /^x+$/.test(c.text)))
  })

  it('splits one huge paragraph into chunks of full sentences', () => {
    const sentence = 'The quick courier delivered every parcel before noon on Tuesday. '
    const text = sentence.repeat(3000).trim()
    const d = doc(text)
    const chunks = chunkDocument(d, { size: 800, overlap: 100 })
    assertChunkInvariants(d, chunks, 800)
    for (const c of chunks) assert.ok(c.text.endsWith('Tuesday.'), 'every chunk ends at a sentence')
    assert.ok(chunks.length > 200)
  })

  it('keeps offsets exact in text with emoji, CJK and combining accents, and never cuts a character in two', () => {
    const text = [
      'Café au lait — e\u0301te\u0301 (combining accents), naïve façade. 👩‍👩‍👧 family, 👍🏽 thumbs, 🇫🇷 flag.',
      '東京は日本の首都です。大阪は関西の中心です。京都には多くの寺があります。',
      'Ελληνικά και русский текст. '.repeat(20),
      '😀'.repeat(700),
    ].join('\n\n')
    const d = doc(text)
    for (const size of [7, 16, 33, 100, 401]) {
      const chunks = chunkDocument(d, { size, overlap: Math.floor(size / 4) })
      assertChunkInvariants(d, chunks, size)
      for (const c of chunks) {
        assert.doesNotMatch(c.text, /^[\udc00-\udfff]|[\ud800-\udbff]$/, 'no chunk splits a surrogate pair')
        assert.doesNotMatch(c.text, /^\p{M}/u, 'no chunk starts with a combining mark')
      }
    }
    const cjk = chunkDocument(doc('東京は日本の首都です。大阪は関西の中心です。京都には多くの寺があります。'), { size: 12, overlap: 0 })
    assert.equal(cjk[0]!.text, '東京は日本の首都です。', 'CJK sentences end at 。')
  })

  it('is empty for an empty or blank document', () => {
    assert.deepEqual(chunkDocument(doc(''), { size: 100, overlap: 10 }), [])
    assert.deepEqual(chunkDocument({ title: null, text: ' \n\n ', sections: [], pages: null }, { size: 100, overlap: 10 }), [])
  })

  it('chunks text that no section covers, with an empty heading path', () => {
    const text = 'Intro line.\n\nSection body.'
    const d: ParsedDocument = { title: null, text, sections: [{ headingPath: ['S'], start: 13, end: text.length }], pages: null }
    const chunks = chunkDocument(d, { size: 100, overlap: 0 })
    assert.deepEqual(
      chunks.map((c) => [c.text, c.headingPath]),
      [
        ['Intro line.', []],
        ['Section body.', ['S']],
      ],
    )
  })

  it('is deterministic and fast: a 1 MB document in well under a second', async () => {
    const paragraphs: string[] = []
    for (let i = 0, length = 0; length < 1_000_000; i++) {
      if (i % 12 === 0) paragraphs.push(`## Part ${i / 12}`)
      paragraphs.push(`${REFUNDS.split('\n\n')[i % 3]} Paragraph ${i} adds its own words: ${'order delivery invoice account '.repeat(i % 7)}`.trim())
      length += paragraphs[paragraphs.length - 1]!.length + 2
    }
    const d = await md(paragraphs.join('\n\n'))
    const t0 = performance.now()
    const chunks = chunkDocument(d, { size: 1000, overlap: 150 })
    const ms = performance.now() - t0
    assertChunkInvariants(d, chunks, 1000)
    assert.deepEqual(chunkDocument(d, { size: 1000, overlap: 150 }), chunks)
    const perSecond = Math.round(chunks.length / (ms / 1000))
    process.stdout.write(`# chunked ${(d.text.length / 1e6).toFixed(2)} MB into ${chunks.length} chunks in ${ms.toFixed(1)} ms (${perSecond} chunks/s)\n`)
    assert.ok(perSecond > 2000, `${perSecond} chunks/s`)
  })
})
