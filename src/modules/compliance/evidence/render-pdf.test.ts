// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { pdfText, renderEvidencePdf } from './render-pdf.js'
import type { EvidenceReport } from './report.types.js'

const dir = mkdtempSync(join(tmpdir(), 'evidence-pdf-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** The PDF's text as poppler reads it (pages: the first and last to read), whitespace collapsed. */
function pdfToText(pdf: Buffer, pages?: [number, number]): string {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.pdf`)
  writeFileSync(file, pdf)
  const range = pages ? ['-f', String(pages[0]), '-l', String(pages[1])] : []
  const r = spawnSync('pdftotext', [...range, file, '-'], { encoding: 'utf8' })
  assert.equal(r.error, undefined, 'pdftotext runs (Debian poppler-utils, installed by .ci/run)')
  assert.equal(r.status, 0, r.stderr)
  return r.stdout.replace(/\s+/g, ' ')
}

const CHECKSUM = '3f'.repeat(32)

function auditReport(rowCount: number): EvidenceReport {
  return {
    kind: 'audit_chain',
    title: 'Audit log chain verification',
    workspace: { id: 'ws_7Hq2', name: 'Acme Support' },
    mode: 'live',
    period: { from: '2026-01-01', to: '2026-03-31' },
    generated_at: '2026-04-01T08:30:00.000Z',
    summary: [
      { label: 'Entries verified', value: '1,204' },
      { label: 'Broken links', value: '0' },
      { label: 'Result', value: 'Intact' },
    ],
    sections: [
      { heading: 'Method', text: "Each entry was hashed again with its predecessor's hash and compared with the stored one." },
      {
        heading: 'Verified entries',
        text: 'One row per entry, in chain order.',
        table: {
          columns: ['Sequence', 'Entry hash', 'Actor', 'Verified at'],
          rows: Array.from({ length: rowCount }, (_, i) => [
            String(i + 1),
            i === rowCount - 1 ? 'lasthash-zz9' : `${(i * 7919).toString(16).padStart(8, '0')}${'c0ffee'.repeat(6)}`,
            // One cell far too long for its column: cut, not allowed to grow the row past a page.
            i === 3 ? `api key ${'rotating credentials '.repeat(60)}END-OF-LONG-CELL` : i === rowCount - 1 ? 'final-actor' : `user-${i + 1}@example.com`,
            i === rowCount - 1 ? '2026-03-31T23:59:59Z' : '2026-03-01T10:00:00Z',
          ]),
        },
      },
      { heading: 'Conclusion', text: 'The chain is intact for the whole period.' },
    ],
    checksum: CHECKSUM,
  }
}

describe('renderEvidencePdf', () => {
  it('renders a 200-row report as an A4 PDF whose text can be read back', async () => {
    const pdf = await renderEvidencePdf(auditReport(200))
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-')
    const text = pdfToText(pdf)
    for (const s of ['Audit log chain verification', 'Acme Support (ws_7Hq2)', 'Mode: live', '2026-01-01 – 2026-03-31', '2026-04-01T08:30:00.000Z']) assert.ok(text.includes(s), `title block has ${s}`)
    for (const s of ['Summary', 'Method', 'Verified entries', 'Conclusion']) assert.ok(text.includes(s), `heading ${s}`)
    for (const s of ['Entries verified', 'Broken links', 'Result', '1,204', 'Intact']) assert.ok(text.includes(s), `summary has ${s}`)
    for (const s of ['200', 'lasthash-zz9', 'final-actor', '2026-03-31T23:59:59Z']) assert.ok(text.includes(s), `last row has ${s}`)
    assert.ok(text.includes('Page 2'))
    assert.ok(text.includes('…'), 'the over-long cell is cut with an ellipsis')
    assert.ok(!text.includes('END-OF-LONG-CELL'))
    assert.match(pdf.subarray(0, 4000).toString('latin1'), /\/MediaBox \[0 0 595\.28 841\.89\]/)
  })

  it('repeats the column headers and the checksum on every page the table spans, numbered "Page n of N"', async () => {
    const pdf = await renderEvidencePdf(auditReport(200))
    const pages = Number(/Page 1 of (\d+)/.exec(pdfToText(pdf, [1, 1]))?.[1])
    assert.ok(pages >= 4, `200 rows flow over several pages (${pages})`)
    for (let p = 1; p <= pages; p++) {
      const text = pdfToText(pdf, [p, p])
      assert.ok(text.includes(`Page ${p} of ${pages}`), `page ${p} numbered`)
      assert.ok(text.includes(`SHA-256 ${CHECKSUM}`), `page ${p} has the checksum`)
      if (p > 1 && p < pages) assert.ok(text.includes('Verified entries (continued) Sequence Entry hash Actor Verified at'), `page ${p} repeats the header`)
    }
  })

  it('is deterministic: the same report gives the same bytes', async () => {
    const [a, b] = await Promise.all([renderEvidencePdf(auditReport(30)), renderEvidencePdf(auditReport(30))])
    assert.ok(a.equals(b))
  })

  it('does not crash on characters the standard fonts lack, and keeps those they have', async () => {
    const report: EvidenceReport = {
      ...auditReport(3),
      title: 'Zugriffsprüfung ö € 中文 🎉',
      workspace: { id: 'ws_1', name: 'Bäckerei 中文 👩‍💻' },
      summary: [{ label: 'Kosten €', value: '1.204 € 👍🏽' }],
      sections: [{ heading: 'Größe 中文', text: 'Zeile mit ö, €, 中文 und 🚀.\r\nZweite Zeile.', table: { columns: ['Name 中文', 'Wert'], rows: [['ö 🎉', '€ 中文']] } }],
    }
    const pdf = await renderEvidencePdf(report)
    const text = pdfToText(pdf)
    assert.ok(text.includes('Zugriffsprüfung ö € ?? ?'), text)
    assert.ok(text.includes('Bäckerei ?? ?'))
    assert.ok(text.includes('1.204 € ?'))
    assert.ok(text.includes('Größe ??'))
    assert.ok(text.includes('Zeile mit ö, €, ?? und ?. Zweite Zeile.'))
  })

  it('renders a report with no summary, an empty table and no checksum', async () => {
    const pdf = await renderEvidencePdf({ ...auditReport(0), summary: [], sections: [{ heading: 'Nothing to show', table: { columns: ['A'], rows: [] } }], checksum: undefined })
    const text = pdfToText(pdf)
    assert.ok(text.includes('Nothing to show'))
    assert.ok(text.includes('Page 1 of 1'))
    assert.ok(!text.includes('SHA-256'))
  })
})

describe('pdfText', () => {
  it('keeps what WinAnsi has, spells out what it can, and marks the rest with one "?" per character', () => {
    assert.equal(pdfText('plain ASCII'), 'plain ASCII')
    assert.equal(pdfText('ö ß € – “quoted” …'), 'ö ß € – “quoted” …')
    assert.equal(pdfText('o\u0308'), 'ö', 'combining marks composed')
    assert.equal(pdfText('Łódź ś ﬁ'), '?ódz s fi')
    assert.equal(pdfText('中文'), '??')
    assert.equal(pdfText('👍🏽 👩‍💻 🇩🇪'), '? ? ?')
    assert.equal(pdfText('a\u200bb\u0007c\td'), 'abc d')
  })
})
