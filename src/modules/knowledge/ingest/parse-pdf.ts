import type { getDocumentProxy } from 'unpdf'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'
import { DocumentParseError } from './parse-error.js'
import { unwrapLines } from './unwrap-lines.js'

interface TextItem {
  str: string
  transform: number[]
  height: number
  hasEOL: boolean
}
type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>

/**
 * A PDF → its text page by page, through unpdf (Mozilla's pdf.js built to run without a worker or a
 * canvas). Each page is a range of the text, so a chunk knows its page. Lines come from pdf.js's text
 * items; a vertical gap larger than a line and a half starts a paragraph. Outline (bookmark) titles found
 * as a whole line on their page become headings.
 */
export async function parsePdf(input: Uint8Array): Promise<ParsedDocument> {
  const { getDocumentProxy } = await import('unpdf')
  let pdf: PdfDocument
  try {
    // pdf.js takes ownership of (detaches) the buffer it gets: give it a copy.
    pdf = await getDocumentProxy(new Uint8Array(input), { isEvalSupported: false, disableFontFace: true, verbosity: 0, stopAtErrors: false })
  } catch (err) {
    throw readable(err)
  }
  try {
    const outline = await outlineByPage(pdf)
    const b = new DocumentBuilder()
    for (let n = 1; n <= pdf.numPages; n++) {
      b.startPage(n)
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      writePage(b, content.items as unknown as TextItem[], [...(outline.get(n) ?? [])])
      page.cleanup()
    }
    const doc = b.build(await metadataTitle(pdf), true)
    if (doc.text.trim() === '' && pdf.numPages > 0) {
      throw new DocumentParseError('The PDF has no text to read: its pages are probably scanned images (OCR is not supported).')
    }
    return doc
  } catch (err) {
    throw err instanceof DocumentParseError ? err : readable(err)
  } finally {
    await pdf.destroy().catch(() => {})
  }
}

function writePage(b: DocumentBuilder, items: TextItem[], headings: { level: number; title: string }[]): void {
  let line = ''
  let lastY: number | null = null
  let lastHeight = 0
  let gap = false
  // The lines of the paragraph being read: its wraps are joined when it ends (`unwrapLines`).
  let paragraph: string[] = []
  const endParagraph = () => {
    for (const l of unwrapLines(paragraph)) {
      b.breakLine()
      b.inline(l)
    }
    paragraph = []
  }
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim()
    line = ''
    if (!text) return
    const h = headings.findIndex((x) => text === x.title)
    if (h >= 0) {
      endParagraph()
      b.heading(headings[h]!.level, text)
      headings.splice(h, 1) // a title heads the page once; the same words later are text
    } else {
      if (gap) {
        endParagraph()
        b.breakParagraph()
      }
      paragraph.push(text)
    }
    gap = false
  }
  for (const item of items) {
    if (typeof item.str !== 'string') continue // marked-content markers
    const y = item.transform[5] ?? 0
    const height = item.height || Math.abs(item.transform[3] ?? 0) || lastHeight
    if (item.str.trim() !== '') {
      if (lastY !== null) {
        const dy = Math.abs(y - lastY)
        const h = Math.max(height, lastHeight)
        if (dy > h * 0.5) {
          flush() // the line before, with its own gap
          if (dy > h * 1.6) gap = true
        }
      }
      lastY = y
      lastHeight = height
    }
    line += item.str
    if (item.hasEOL) flush()
  }
  flush()
  endParagraph()
}

// Outline entries that point at a page, by page number: { level, title }.
async function outlineByPage(pdf: PdfDocument): Promise<Map<number, { level: number; title: string }[]>> {
  const byPage = new Map<number, { level: number; title: string }[]>()
  let outline: { title: string; dest: unknown; items: unknown[] }[] | null = null
  try {
    outline = (await pdf.getOutline()) as never
  } catch {
    return byPage
  }
  const walk = async (items: { title: string; dest: unknown; items: unknown[] }[], level: number) => {
    for (const item of items) {
      try {
        const dest = typeof item.dest === 'string' ? await pdf.getDestination(item.dest) : item.dest
        const ref = Array.isArray(dest) ? dest[0] : null
        if (ref && typeof ref === 'object') {
          const page = (await pdf.getPageIndex(ref as never)) + 1
          const title = item.title.replace(/\s+/g, ' ').trim()
          if (title) byPage.set(page, [...(byPage.get(page) ?? []), { level: Math.min(level, 6), title }])
        }
      } catch {
        // an outline entry with a broken destination is only skipped
      }
      if (item.items?.length) await walk(item.items as never, level + 1)
    }
  }
  if (outline) await walk(outline, 1)
  return byPage
}

async function metadataTitle(pdf: PdfDocument): Promise<string | null> {
  try {
    const meta = (await pdf.getMetadata()) as { info?: { Title?: unknown }; metadata?: { get(name: string): unknown } | null }
    const fromXmp = meta.metadata?.get('dc:title')
    const title = typeof fromXmp === 'string' && fromXmp.trim() ? fromXmp : meta.info?.Title
    return typeof title === 'string' && title.trim() ? title.trim() : null
  } catch {
    return null
  }
}

function readable(err: unknown): DocumentParseError {
  const name = (err as { name?: string })?.name
  if (name === 'PasswordException') return new DocumentParseError('The PDF is protected by a password: remove the password and upload it again.', { cause: err })
  if (name === 'InvalidPDFException' || name === 'FormatError') return new DocumentParseError('The file is not a valid PDF: it is damaged or incomplete.', { cause: err })
  const msg = err instanceof Error ? err.message.split('\n')[0] : String(err)
  return new DocumentParseError(`The PDF could not be read: ${msg}`, { cause: err })
}
