// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { buildDocx, buildPdf } from './fixtures/build-fixtures.js'
import { assertChunkInvariants } from './fixtures/check-chunks.js'
import { chunkDocument, DocumentParseError, formatOf, parseDocument, type ParsedDocument } from './index.js'

function sectionText(doc: ParsedDocument, path: string[]): string {
  const s = doc.sections.find((x) => x.headingPath.join(' > ') === path.join(' > '))
  assert.ok(s, `a section ${path.join(' > ')}`)
  return doc.text.slice(s.start, s.end)
}

function checkChunks(doc: ParsedDocument): void {
  for (const [size, overlap] of [
    [60, 15],
    [200, 40],
    [1000, 100],
  ] as const)
    assertChunkInvariants(doc, chunkDocument(doc, { size, overlap }), size)
}

describe('formatOf', () => {
  it('reads the content type, and the file name when the type says nothing', () => {
    assert.equal(formatOf('application/pdf'), 'pdf')
    assert.equal(formatOf('text/html; charset=utf-8'), 'html')
    assert.equal(formatOf('text/markdown'), 'markdown')
    assert.equal(formatOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document'), 'docx')
    assert.equal(formatOf('text/plain', 'notes.md'), 'markdown')
    assert.equal(formatOf('application/octet-stream', 'Guide.PDF'), 'pdf')
    assert.equal(formatOf(undefined, 'readme.txt'), 'text')
    assert.equal(formatOf('text/plain'), 'text')
    assert.equal(formatOf('image/png', 'photo.png'), null)
    assert.equal(formatOf('application/octet-stream', 'archive.zip'), null)
    assert.equal(formatOf('application/msword', 'old.doc'), null)
    assert.equal(formatOf(undefined), null)
  })
})

describe('parseDocument', () => {
  it('plain text: lines kept, blank-line runs and spaces tidied, no title', async () => {
    const d = await parseDocument(Buffer.from('\ufeffShipping policy\r\n\r\n\r\n\r\nOrders   ship in 2 days.\r\nTracking is e-mailed.\n\n\n'), 'text')
    assert.equal(d.text, 'Shipping policy\n\nOrders ship in 2 days.\nTracking is e-mailed.')
    assert.equal(d.title, null)
    assert.deepEqual(d.sections, [{ headingPath: [], start: 0, end: d.text.length }])
    assert.equal(d.pages, null)
    checkChunks(d)
  })

  it('refuses binary data given as text', async () => {
    await assert.rejects(parseDocument(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0, 1, 2]), 'text'), DocumentParseError)
  })

  it('Markdown: headings become nested sections, markup goes, the first h1 is the title', async () => {
    const d = await parseDocument(
      Buffer.from(
        [
          '# User guide',
          'Intro with **bold**, _em_, `code` and a [link](https://example.com) &amp; an ![logo](x.png).',
          '## Install',
          '1. Download\n2. Run the *installer*',
          '```sh\nnpm install svc\n```',
          '### On Windows',
          '> Run it as administrator.',
          '## Use',
          '| Plan | Price |\n| --- | --- |\n| Free | 0 |\n| Pro | 10 |',
          '# Appendix',
          'Last words.',
        ].join('\n\n'),
      ),
      'markdown',
    )
    assert.equal(d.title, 'User guide')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      [['User guide'], ['User guide', 'Install'], ['User guide', 'Install', 'On Windows'], ['User guide', 'Use'], ['Appendix']],
    )
    assert.equal(sectionText(d, ['User guide']), 'User guide\n\nIntro with bold, em, code and a link & an logo.')
    assert.equal(sectionText(d, ['User guide', 'Install']), 'Install\n\nDownload\nRun the installer\n\nnpm install svc')
    assert.equal(sectionText(d, ['User guide', 'Install', 'On Windows']), 'On Windows\n\nRun it as administrator.')
    assert.match(sectionText(d, ['User guide', 'Use']), /^Use\n\nPlan Price\nFree 0\nPro 10$/)
    checkChunks(d)
  })

  it('Markdown: front matter gives the title and is not text', async () => {
    const d = await parseDocument(Buffer.from('---\ntitle: "Billing FAQ"\ntags: [a]\n---\n\nHow do I pay?'), 'markdown')
    assert.equal(d.title, 'Billing FAQ')
    assert.equal(d.text, 'How do I pay?')
  })

  it('HTML: the main content without navigation or footer, headings as sections, the <title>', async () => {
    const para = (topic: string) =>
      `<p>${topic} is explained here in enough words for a reader to follow, with the steps one after the other, the settings each step needs and what to do when the result is not the one expected. Support answers the remaining questions by e-mail.</p>`
    const html = `<!doctype html><html><head><title>Account help</title><meta charset="utf-8"><style>p{color:red}</style></head><body>
      <nav><a href="/">Home</a><a href="/pricing">Pricing</a></nav>
      <article><h1>Account help</h1>${para('Signing in')}
        <h2>Passwords</h2>${para('Resetting a password')}<ul><li>Open settings</li><li>Choose <b>Reset</b></li></ul>
        <h3>Two-factor</h3>${para('Two-factor authentication')}<pre>code:  123 456\n  next line</pre>
        <h2>Closing an account</h2>${para('Closing an account')}<script>alert('x')</script></article>
      <footer>© Example Ltd — all rights reserved</footer></body></html>`
    const d = await parseDocument(Buffer.from(html), 'html', { url: 'https://help.example.com/account' })
    assert.equal(d.title, 'Account help')
    assert.doesNotMatch(d.text, /Pricing|rights reserved|alert|color:red/)
    assert.match(d.text, /Resetting a password is explained/)
    assert.match(d.text, /Open settings\nChoose Reset/)
    assert.match(d.text, /code: {2}123 456\n {2}next line/)
    const paths = d.sections.map((s) => s.headingPath.at(-1))
    assert.ok(paths.includes('Passwords') && paths.includes('Two-factor') && paths.includes('Closing an account'), JSON.stringify(d.sections))
    const twoFactor = d.sections.find((s) => s.headingPath.at(-1) === 'Two-factor')!
    assert.deepEqual(twoFactor.headingPath, ['Account help', 'Passwords', 'Two-factor'], 'the h1 Readability folds into the title still heads the paths')
    checkChunks(d)
  })

  it('HTML: a page of many small blocks (a FAQ) keeps every question, still without navigation or footer', async () => {
    const qa = Array.from({ length: 8 }, (_, i) => `<div class="q"><h3>Can I do thing ${i}?</h3><div class="a">Yes, thing ${i} is in the settings.</div></div>`).join('')
    const html = `<html><head><title>FAQ</title></head><body><nav>Home | Docs</nav><main>${qa}</main><footer>Footer text</footer></body></html>`
    const d = await parseDocument(Buffer.from(html), 'html')
    assert.equal(d.title, 'FAQ')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      Array.from({ length: 8 }, (_, i) => [`Can I do thing ${i}?`]),
    )
    assert.equal(sectionText(d, ['Can I do thing 7?']), 'Can I do thing 7?\n\nYes, thing 7 is in the settings.')
    assert.doesNotMatch(d.text, /Home \| Docs|Footer text/)
  })

  it('HTML: a fragment and a short page are read whole, in the charset they declare', async () => {
    const d = await parseDocument(Buffer.from('<h2>Opening hours</h2><p>Mon&ndash;Fri 9&nbsp;to&nbsp;5.</p>'), 'html')
    assert.equal(d.text, 'Opening hours\n\nMon–Fri 9 to 5.')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      [['Opening hours']],
    )
    const latin1 = Buffer.concat([
      Buffer.from('<html><head><meta charset="iso-8859-1"><title>Caf'),
      Buffer.from([0xe9]),
      Buffer.from('</title></head><body><p>Cr'),
      Buffer.from([0xe8]),
      Buffer.from('me br'),
      Buffer.from([0xfb]),
      Buffer.from('l'),
      Buffer.from([0xe9]),
      Buffer.from('e</p></body></html>'),
    ])
    const l = await parseDocument(latin1, 'html')
    assert.equal(l.title, 'Café')
    assert.equal(l.text, 'Crème brûlée')
  })

  it('PDF: text page by page, each chunk on the page it starts on, the metadata title', async () => {
    const pages = [
      'Chapter one covers installation.\n\nDownload the package and run the installer. It asks for the data folder and the port.',
      'Chapter two covers configuration. Every setting has a default and can be changed later.',
      'Chapter three covers backups. Copy the data folder while the service is stopped.',
    ]
    const d = await parseDocument(await buildPdf(pages, { title: 'Admin manual' }), 'pdf')
    assert.equal(d.title, 'Admin manual')
    assert.ok(d.pages)
    assert.deepEqual(
      d.pages.map((p) => p.page),
      [1, 2, 3],
    )
    for (const p of d.pages) assert.match(d.text.slice(p.start, p.end), new RegExp(`^Chapter ${['one', 'two', 'three'][p.page - 1]} covers`))
    assert.match(d.text.slice(d.pages[0]!.start, d.pages[0]!.end), /installation\.\n\nDownload the package/, 'a blank line in the PDF is a paragraph')
    const chunks = chunkDocument(d, { size: 60, overlap: 10 })
    assertChunkInvariants(d, chunks, 60)
    assert.deepEqual([...new Set(chunks.map((c) => c.page))], [1, 2, 3])
    assert.equal(chunks.find((c) => c.text.includes('backups'))!.page, 3)
  })

  it('PDF: bookmarks found as lines on their page become headings', async () => {
    const pages = ['Installation\n\nDownload\n\nGet the package from the website.\n\nRun\n\nStart the installer.', 'Configuration\n\nEvery setting has a default.']
    const outline = [
      {
        title: 'Installation',
        page: 1,
        children: [
          { title: 'Download', page: 1 },
          { title: 'Run', page: 1 },
        ],
      },
      { title: 'Configuration', page: 2 },
    ]
    const d = await parseDocument(await buildPdf(pages, { outline }), 'pdf')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      [['Installation'], ['Installation', 'Download'], ['Installation', 'Run'], ['Configuration']],
    )
    assert.equal(sectionText(d, ['Installation', 'Run']), 'Run\n\nStart the installer.')
    const chunks = chunkDocument(d, { size: 200, overlap: 20 })
    assertChunkInvariants(d, chunks, 200)
    assert.deepEqual(
      chunks.map((c) => [c.headingPath.at(-1), c.page]),
      [
        ['Download', 1],
        ['Run', 1],
        ['Configuration', 2],
      ],
    )
  })

  it('PDF: a corrupt, a truncated and a password-protected file each fail with a readable message', async () => {
    await assert.rejects(parseDocument(Buffer.from('%PDF-1.7\nthis is not really a pdf'), 'pdf'), (err: Error) => err instanceof DocumentParseError && /PDF/.test(err.message))
    await assert.rejects(parseDocument(Buffer.from('hello world'), 'pdf'), (err: Error) => err instanceof DocumentParseError && /not a valid PDF/.test(err.message))
    const whole = await buildPdf(['Some text on a page.'])
    await assert.rejects(parseDocument(whole.subarray(0, 200), 'pdf'), DocumentParseError)
    await assert.rejects(parseDocument(await buildPdf(['Secret text.'], { encrypted: true }), 'pdf'), (err: Error) => err instanceof DocumentParseError && /password/.test(err.message))
  })

  it('PDF: pages without text fail with a message that says so', async () => {
    await assert.rejects(parseDocument(await buildPdf(['', '']), 'pdf'), (err: Error) => err instanceof DocumentParseError && /no text/.test(err.message))
  })

  it('DOCX: Word heading styles become sections, the core title is the title', async () => {
    const file = await buildDocx(
      [
        { heading: 1, text: 'Onboarding' },
        { text: 'Welcome to the team. This guide covers your first week.' },
        { heading: 2, text: 'Day one' },
        { text: 'Collect your laptop from IT.' },
        { text: 'Meet your mentor.' },
        { heading: 3, text: 'Accounts' },
        { text: 'Your e-mail account is ready at 9:00.' },
        { heading: 2, text: 'Day two' },
        { text: 'Shadow a support shift.' },
      ],
      { title: 'New hire handbook' },
    )
    const d = await parseDocument(file, 'docx')
    assert.equal(d.title, 'New hire handbook')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      [['Onboarding'], ['Onboarding', 'Day one'], ['Onboarding', 'Day one', 'Accounts'], ['Onboarding', 'Day two']],
    )
    assert.equal(sectionText(d, ['Onboarding', 'Day one']), 'Day one\n\nCollect your laptop from IT.\n\nMeet your mentor.')
    checkChunks(d)
    const untitled = await parseDocument(await buildDocx([{ heading: 1, text: 'Leave policy' }, { text: 'Ask two weeks ahead.' }]), 'docx')
    assert.equal(untitled.title, 'Leave policy')
  })

  it('DOCX: a file that is not one fails with a readable message', async () => {
    await assert.rejects(parseDocument(Buffer.from('not a zip at all'), 'docx'), (err: Error) => err instanceof DocumentParseError && /Word document/.test(err.message))
    await assert.rejects(parseDocument(await buildPdf(['x']), 'docx'), DocumentParseError)
  })

  it('an empty document of each text format is empty, with no sections and no chunks', async () => {
    for (const format of ['text', 'markdown', 'html'] as const) {
      const d = await parseDocument(Buffer.alloc(0), format)
      assert.equal(d.text, '', format)
      assert.deepEqual(d.sections, [], format)
      assert.deepEqual(chunkDocument(d, { size: 100, overlap: 10 }), [], format)
    }
    const docx = await parseDocument(await buildDocx([]), 'docx')
    assert.equal(docx.text, '')
  })

  it('loads no parsing library until a file of its format comes (pdf.js is not paid for at start)', () => {
    const hook = `export async function resolve(s, c, next) { if (/^[a-z@]/.test(s) && !/^(node|file|data):/.test(s)) process.stderr.write('LOAD ' + s + '\\n'); return next(s, c) }`
    const script = `
      import { register } from 'node:module'
      register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))
      const m = await import(${JSON.stringify(new URL('./index.js', import.meta.url).href)})
      await m.parseDocument(Buffer.from('plain'), 'text')
      process.stderr.write('MARK\\n')
      await m.parseDocument(Buffer.from('# md'), 'markdown')`
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    const [before, after] = r.stderr.split('MARK')
    assert.deepEqual(before!.match(/LOAD (?!tsx)\S+/g) ?? [], [], 'nothing loaded for index and plain text')
    assert.deepEqual(after!.match(/LOAD (?!tsx)\S+/g), ['LOAD marked'])
  })

  it('unicode text keeps exact offsets through parsing and chunking', async () => {
    const source = '# Ünïcödé 🚀\n\nCafe\u0301 crème — 東京タワーは三百三十三メートルです。👩🏽‍💻 writes code.\n\n## 中文\n\n' + '汉字与标点，混合 English words 和 emoji 🎉。'.repeat(40)
    const d = await parseDocument(Buffer.from(source), 'markdown')
    assert.equal(d.title, 'Ünïcödé 🚀')
    assert.deepEqual(
      d.sections.map((s) => s.headingPath),
      [['Ünïcödé 🚀'], ['Ünïcödé 🚀', '中文']],
    )
    checkChunks(d)
    for (const size of [9, 23, 57]) assertChunkInvariants(d, chunkDocument(d, { size, overlap: 4 }), size)
  })
})
