import type { DocumentFormat } from './document-format.js'
import type { ParsedDocument } from './document-builder.js'
import { textTooLong, type IngestLimits } from './ingest-limits.js'
import { DocumentParseError } from './parse-error.js'
import { parseText } from './parse-text.js'

/**
 * Reads a document of the given format into plain text with its sections and, for PDF, pages. Throws
 * DocumentParseError with a message for the user when the file cannot be read. The parsers of the other
 * formats (pdf.js above all) are imported on first use, so a process that never ingests does not load them;
 * each parser imports its library inside the function too, so that this holds in the esbuild bundle as well
 * (where a static import of an external package would be hoisted to the bundle's top).
 */
export async function parseDocument(
  input: Buffer | Uint8Array,
  format: DocumentFormat,
  opts: { url?: string; limits?: Pick<IngestLimits, 'maxInflatedBytes' | 'maxTextChars'> } = {},
): Promise<ParsedDocument> {
  const doc = await parseFormat(input, format, opts)
  const max = opts.limits?.maxTextChars
  if (max !== undefined && doc.text.length > max) throw textTooLong(doc.text.length, max)
  return doc
}

async function parseFormat(input: Buffer | Uint8Array, format: DocumentFormat, opts: { url?: string; limits?: Pick<IngestLimits, 'maxInflatedBytes'> }): Promise<ParsedDocument> {
  try {
    switch (format) {
      case 'text':
        return parseText(input)
      case 'markdown':
        return await (await import('./parse-markdown.js')).parseMarkdown(input)
      case 'html':
        return await (await import('./parse-html.js')).parseHtml(input, opts)
      case 'pdf':
        return await (await import('./parse-pdf.js')).parsePdf(input)
      case 'docx':
        return await (await import('./parse-docx.js')).parseDocx(input, opts.limits?.maxInflatedBytes)
      default:
        throw new DocumentParseError(`Documents of format ${String(format)} cannot be read.`)
    }
  } catch (err) {
    if (err instanceof DocumentParseError) throw err
    // A library that chokes on a malformed file throws whatever it throws; the user gets a plain sentence
    // and the cause stays attached for the log.
    throw new DocumentParseError(`The ${LABEL[format] ?? 'file'} could not be read: ${reason(err)}`, { cause: err })
  }
}

const LABEL: Record<DocumentFormat, string> = { text: 'text file', markdown: 'Markdown file', html: 'HTML page', pdf: 'PDF', docx: 'Word document' }

function reason(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err)
  const line = msg.split('\n')[0]!.trim().slice(0, 200)
  return line ? (/[.!?]$/.test(line) ? line : `${line}.`) : 'it is malformed.'
}
