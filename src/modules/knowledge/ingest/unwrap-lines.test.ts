import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, knowledgeApp, newBase } from '../knowledge.testkit.js'
import { buildPdf } from './fixtures/build-fixtures.js'
import { parseDocument } from './index.js'
import { isEnglishWord, joinHyphenatedWraps, unwrapLines } from './unwrap-lines.js'

/** A man page as `man` prints it: paragraphs wrapped at 72 columns and indented, words hyphenated at the margin. */
const MAN_PAGE = [
  'RSYNC(1)                        User Commands                        RSYNC(1)',
  '',
  'DESCRIPTION',
  '       Rsync is a fast and extraordinarily versatile file copying tool. It',
  '       can copy locally, to/from another host over any remote shell, or',
  '       to/from a remote rsync daemon. It offers a large number of options',
  '       that control every aspect of its behavior and permit very flexible',
  '       specification of the set of files to be copied. The full docu-',
  '       mentation lists every option with its default and its self-',
  '       contained examples.',
  '',
  'OPTIONS',
  '       -v, --verbose',
  '              increase verbosity',
  '       -a, --archive',
  '              archive mode',
  '',
  '       Send bug reports to:',
  '       1 Main Street',
  '       Springfield',
].join('\n')

describe('repairing hard wraps at ingestion', () => {
  it('joins a wrapped paragraph, makes hyphenated words whole when they are words, keeps compounds', () => {
    const lines = MAN_PAGE.split('\n\n')[1]!.split('\n')
    assert.deepEqual(unwrapLines(lines), [
      'DESCRIPTION',
      'Rsync is a fast and extraordinarily versatile file copying tool. It can copy locally, to/from another host over any remote shell, or to/from a remote rsync daemon. It offers a large number of options that control every aspect of its behavior and permit very flexible specification of the set of files to be copied. The full documentation lists every option with its default and its self-contained examples.',
    ])
  })

  it('keeps lists, option tables, columns and short lines (addresses) as they are', () => {
    assert.deepEqual(unwrapLines(['       -v, --verbose', '              increase verbosity', '       -a, --archive', '              archive mode']), [
      '-v, --verbose',
      'increase verbosity',
      '-a, --archive',
      'archive mode',
    ])
    assert.deepEqual(unwrapLines(['Send bug reports to:', '1 Main Street', 'Springfield']), ['Send bug reports to:', '1 Main Street', 'Springfield'])
    const list = ['- Refunds are paid back to the original card within five working days of our', '- Exchanges are free of charge for every order placed in the last thirty days']
    assert.deepEqual(unwrapLines(list), list)
    const table = ['Plan        Price       Seats included with the plan', 'Basic       9.99        1 seat, upgrade at any time']
    assert.deepEqual(unwrapLines(table), table)
  })

  it('knows words from fragments', () => {
    assert.ok(isEnglishWord('documentation') && isEnglishWord('Processed'))
    assert.ok(!isEnglishWord('selfcontained') && !isEnglishWord('docu'))
    assert.equal(joinHyphenatedWraps('The docu-\nment is well-\nknown and self-\ncontained.'), 'The document is well-known and self-contained.')
  })

  it('plain text, Markdown and PDF text are read repaired', async () => {
    const text = await parseDocument(Buffer.from(MAN_PAGE), 'text')
    assert.match(text.text, /The full documentation lists every option with its default and its self-contained examples\./)
    assert.match(text.text, /-v, --verbose\nincrease verbosity\n-a, --archive/)
    const md = await parseDocument(Buffer.from('# Setup\n\nThe installer copies the configu-\nration file to your home folder.\n'), 'markdown')
    assert.equal(md.text, 'Setup\n\nThe installer copies the configuration file to your home folder.')
    // A PDF's lines are its layout's: a paragraph wrapped at the page's width is one line again.
    const paragraph =
      'Refunds are paid back to the original card within five working days of the return reaching our warehouse, and we send an e-mail the moment the money leaves our account so that you know when to look for it.'
    const pdf = await parseDocument(await buildPdf([`${paragraph}\n\nQuestions? Write to us.`]), 'pdf')
    assert.equal(pdf.text, `${paragraph}\n\nQuestions? Write to us.`)
  })
})

describe('a wrapped, hyphenated document read back through the API', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())

  it('is stored with its wraps joined: the text and its chunks read as sentences', async () => {
    const kb = await newBase(h)
    const doc = await addText(h, kb.id, { title: 'rsync(1)', text: MAN_PAGE })
    assert.equal(doc.status, 'ready', JSON.stringify(doc))
    const full = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}?include=chunks,text` }))
    assert.match(full.text, /It can copy locally, to\/from another host over any remote shell, or to\/from a remote rsync daemon\./)
    assert.match(full.text, /The full documentation lists every option/)
    assert.doesNotMatch(full.text, /docu-|It\ncan/)
    assert.ok(full.chunks.some((c: any) => c.text.includes('specification of the set of files to be copied.')))
    const search = json(await h.request({ method: 'POST', url: '/v2/knowledge/search', payload: { query: 'What does the full documentation list?', knowledge_base_ids: [kb.id], answer: true } }))
    assert.match(search.answer.content, /^The full documentation lists every option with its default and its self-contained examples\. \[1\]$/)
  })
})
