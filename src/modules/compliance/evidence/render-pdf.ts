/**
 * Evidence reports as A4 PDFs, with pdfkit: it wraps and measures text in the standard fonts and flows onto
 * new pages, which pdf-lib leaves to its caller; tables are drawn by hand so that their headers repeat on every
 * page they span. Text stays real text (extractable, searchable) in Helvetica, whose WinAnsi encoding has no
 * CJK or emoji: those are replaced (see `pdfText`) rather than embedding a font of tens of megabytes.
 * The output depends only on the report (creation date = generated_at, file id derived from it).
 */
import type { EvidenceReport, EvidenceTable } from './report.types.js'

type Doc = PDFKit.PDFDocument

const MARGIN = 50
/** Room below the content for the footer (page number, checksum). */
const FOOTER_ROOM = 30
const CELL_PAD = 4
/** A cell longer than this many lines is cut with an ellipsis, so one row never outgrows a page. */
const CELL_MAX_LINES = 4
const MIN_COLUMN = 40
/** Column widths are measured on the first rows only: enough to see the shape, bounded for long tables. */
const MEASURED_ROWS = 500
const INK = '#111111'
const MUTED = '#555555'
const RULE = '#c8ced6'
const HEADER_FILL = '#e6eaf0'
const STRIPE_FILL = '#f5f6f8'
const FONT = 'Helvetica'
const BOLD = 'Helvetica-Bold'

export async function renderEvidencePdf(report: EvidenceReport): Promise<Buffer> {
  // Loaded on first use: most processes never render a report.
  const { default: PDFDocument } = await import('pdfkit')
  const created = new Date(report.generated_at)
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + FOOTER_ROOM },
    bufferPages: true,
    info: {
      Title: report.title,
      Subject: `Evidence report (${report.kind}) for ${report.workspace.name}`,
      Creator: 'Conversational Automation Service',
      ...(Number.isNaN(created.getTime()) ? {} : { CreationDate: created }),
    },
  })
  const chunks: Buffer[] = []
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c))
    doc.on('end', () => resolve(Buffer.concat(chunks)))
    doc.on('error', reject)
  })
  drawTitleBlock(doc, report)
  if (report.summary.length > 0) {
    drawHeading(doc, 'Summary')
    drawTable(doc, { rows: report.summary.map((f) => [f.label, f.value]), boldFirstColumn: true })
  }
  for (const section of report.sections) {
    drawHeading(doc, section.heading)
    if (section.text) {
      doc
        .font(FONT)
        .fontSize(10)
        .fillColor(INK)
        .text(pdfText(section.text), MARGIN, doc.y, { width: contentWidth(doc) })
      doc.moveDown(0.6)
    }
    if (section.table) drawTable(doc, { ...section.table, continued: section.heading })
  }
  drawFooters(doc, report.checksum)
  doc.end()
  return done
}

function drawTitleBlock(doc: Doc, r: EvidenceReport): void {
  doc
    .font(BOLD)
    .fontSize(18)
    .fillColor(INK)
    .text(pdfText(r.title), MARGIN, MARGIN, { width: contentWidth(doc) })
  doc.moveDown(0.3)
  const lines: [string, string][] = [
    ['Workspace', `${r.workspace.name} (${r.workspace.id})`],
    ['Mode', r.mode],
    ['Period', `${r.period.from} – ${r.period.to}`],
    ['Generated at', r.generated_at],
  ]
  for (const [label, value] of lines) {
    doc.font(BOLD).fontSize(10).fillColor(MUTED).text(`${label}: `, { continued: true })
    doc.font(FONT).fillColor(INK).text(pdfText(value))
  }
  const y = doc.y + 8
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + contentWidth(doc), y)
    .lineWidth(1)
    .strokeColor(RULE)
    .stroke()
  doc.y = y + 12
}

function drawHeading(doc: Doc, heading: string): void {
  doc.font(BOLD).fontSize(13)
  // Keep a heading with at least a few lines of what follows it.
  if (doc.y + doc.currentLineHeight(true) + 60 > bottomOf(doc)) doc.addPage()
  doc.fillColor(INK).text(pdfText(heading), MARGIN, doc.y, { width: contentWidth(doc) })
  doc.moveDown(0.4)
}

interface TableSpec extends Partial<EvidenceTable> {
  rows: string[][]
  boldFirstColumn?: boolean
  /** The section's heading, repeated with "(continued)" above the header on the next pages. */
  continued?: string
}

function drawTable(doc: Doc, spec: TableSpec): void {
  const header = spec.columns?.length ? spec.columns.map((c) => cellText(c)) : null
  const count = spec.rows.reduce((n, r) => Math.max(n, r.length), header?.length ?? 0)
  if (count === 0) return
  const pad = (r: string[]) => Array.from({ length: count }, (_, i) => cellText(r[i] ?? ''))
  const rows = spec.rows.map(pad)
  const headerCells = header && pad(header)
  const widths = columnWidths(doc, headerCells, rows, spec.boldFirstColumn ?? false)
  const left = MARGIN
  const fontOf = (column: number) => (spec.boldFirstColumn && column === 0 ? BOLD : FONT)
  doc.fontSize(9)

  const rowHeight = (cells: string[], fontFor: (i: number) => string) =>
    Math.max(...cells.map((c, i) => doc.font(fontFor(i)).heightOfString(c || ' ', { width: widths[i]! - 2 * CELL_PAD }))) + 2 * CELL_PAD

  const drawRow = (cells: string[], y: number, height: number, fill: string | null, fontFor: (i: number) => string) => {
    if (fill) doc.rect(left, y, sum(widths), height).fill(fill)
    let x = left
    cells.forEach((c, i) => {
      doc
        .font(fontFor(i))
        .fillColor(INK)
        .text(c, x + CELL_PAD, y + CELL_PAD, { width: widths[i]! - 2 * CELL_PAD })
      x += widths[i]!
    })
    doc
      .moveTo(left, y + height)
      .lineTo(left + sum(widths), y + height)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke()
  }

  const headerHeight = headerCells ? rowHeight(headerCells, () => BOLD) : 0
  const drawHeader = (y: number) => {
    if (headerCells) drawRow(headerCells, y, headerHeight, HEADER_FILL, () => BOLD)
    return y + headerHeight
  }

  // On every page the table reaches: the section's heading marked "(continued)", then the column headers.
  const nextPage = () => {
    doc.addPage()
    let y = doc.page.margins.top
    if (spec.continued) {
      doc
        .font(BOLD)
        .fontSize(9)
        .fillColor(MUTED)
        .text(`${pdfText(spec.continued)} (continued)`, left, y, { width: contentWidth(doc) })
      y = doc.y + 4
    }
    doc.fontSize(9)
    return drawHeader(y)
  }

  const fitted = rows.map((r) => r.map((c, i) => fitCell(doc.font(fontOf(i)), c, widths[i]! - 2 * CELL_PAD)))
  const firstHeight = fitted.length > 0 ? rowHeight(fitted[0]!, fontOf) : 0
  let y = doc.y + headerHeight + firstHeight > bottomOf(doc) ? nextPage() : drawHeader(doc.y)
  fitted.forEach((cells, n) => {
    const height = rowHeight(cells, fontOf)
    if (y + height > bottomOf(doc)) y = nextPage()
    drawRow(cells, y, height, n % 2 === 1 ? STRIPE_FILL : null, fontOf)
    y += height
  })
  doc.x = left
  doc.y = y + 14
}

/** Each column as wide as its widest cell; when they do not all fit, the narrow ones keep their width and the rest share what is left. */
function columnWidths(doc: Doc, header: string[] | null, rows: string[][], boldFirst: boolean): number[] {
  const total = contentWidth(doc)
  const count = header?.length ?? rows[0]?.length ?? 0
  const natural = Array.from({ length: count }, () => MIN_COLUMN)
  const measure = (cells: string[], bold: (i: number) => boolean) =>
    cells.forEach((c, i) => {
      const w = doc.font(bold(i) ? BOLD : FONT).widthOfString(c) + 2 * CELL_PAD + 1
      natural[i] = Math.min(total, Math.max(natural[i]!, w))
    })
  doc.fontSize(9)
  if (header) measure(header, () => true)
  for (const r of rows.slice(0, MEASURED_ROWS)) measure(r, (i) => boldFirst && i === 0)
  const wanted = sum(natural)
  if (wanted <= total) return natural.map((w) => (w * total) / wanted)
  const widths = new Array<number>(count)
  let left = total
  let open = count
  for (const i of [...natural.keys()].sort((a, b) => natural[a]! - natural[b]!)) {
    widths[i] = Math.min(natural[i]!, left / open)
    left -= widths[i]!
    open -= 1
  }
  return widths
}

/** The cell as it will be printed: wrapped to its column, cut with "…" past CELL_MAX_LINES lines. */
function fitCell(doc: Doc, text: string, width: number): string {
  const limit = doc.heightOfString('X', { width }) * CELL_MAX_LINES + 0.5
  const fits = (t: string) => doc.heightOfString(t, { width }) <= limit
  if (fits(text)) return text
  let lo = 0
  let hi = text.length
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2)
    if (fits(`${text.slice(0, mid).trimEnd()}…`)) lo = mid
    else hi = mid - 1
  }
  return `${text.slice(0, lo).trimEnd()}…`
}

function drawFooters(doc: Doc, checksum: string | undefined): void {
  const { start, count } = doc.bufferedPageRange()
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i)
    // The footer sits in the bottom margin: without lifting it, pdfkit would start a new page to write there.
    const bottom = doc.page.margins.bottom
    doc.page.margins.bottom = 0
    const y = doc.page.height - MARGIN - 8
    const width = contentWidth(doc)
    doc
      .moveTo(MARGIN, y - 6)
      .lineTo(MARGIN + width, y - 6)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke()
    doc.font(FONT).fontSize(8).fillColor(MUTED)
    if (checksum) doc.text(`SHA-256 ${pdfText(checksum)}`, MARGIN, y, { width: width - 80, lineBreak: false, ellipsis: true })
    doc.text(`Page ${i - start + 1} of ${count}`, MARGIN + width - 80, y, { width: 80, align: 'right', lineBreak: false })
    doc.page.margins.bottom = bottom
  }
}

function contentWidth(doc: Doc): number {
  return doc.page.width - doc.page.margins.left - doc.page.margins.right
}

function bottomOf(doc: Doc): number {
  return doc.page.height - doc.page.margins.bottom
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0)
}

/** A table cell: one paragraph, whitespace collapsed. */
function cellText(s: string): string {
  return pdfText(s.replace(/\s+/g, ' ').trim())
}

/** What Helvetica's WinAnsi encoding has beyond Latin-1 (€, curly quotes, dashes, …). */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ')
const PLAIN = /^[\x20-\x7e\n]*$/
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' })

function encodable(ch: string): boolean {
  const c = ch.codePointAt(0)!
  return (c >= 0x20 && c <= 0x7e) || c === 0x0a || (c >= 0xa0 && c <= 0xff) || WIN_ANSI_EXTRA.has(ch)
}

/**
 * Text the standard fonts can print: each character WinAnsi lacks becomes its plain letters where it has some
 * ("ś" → "s", "ﬁ" → "fi") and "?" otherwise (CJK, emoji — one "?" per visible character, modifiers included).
 * pdfkit would otherwise print a wrong glyph or nothing at all, silently.
 */
export function pdfText(s: string): string {
  if (PLAIN.test(s)) return s
  let out = ''
  for (const { segment } of segmenter.segment(s.replace(/\r\n?/g, '\n').replace(/\t/g, ' '))) {
    const g = segment.normalize('NFC')
    if ([...g].every(encodable)) {
      out += g
      continue
    }
    if (/^[\p{Cc}\p{Cf}]+$/u.test(g)) continue
    const plain = g.normalize('NFKD').replace(/\p{M}/gu, '')
    out += plain !== '' && [...plain].every(encodable) ? plain : '?'
  }
  return out
}
