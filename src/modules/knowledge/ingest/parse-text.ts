import { decodeText, normalizeNewlines } from './decode-text.js'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'

/**
 * Plain text keeps its lines (lists, addresses and code read wrong once joined); only runs of spaces and
 * of blank lines are tidied. It has no headings, so one section with an empty path.
 */
export function parseText(input: Uint8Array): ParsedDocument {
  const text = normalizeNewlines(decodeText(input))
  const b = new DocumentBuilder()
  for (const block of text.split(/\n[ \t]*\n\s*/)) {
    b.breakParagraph()
    for (const line of block.split('\n')) {
      b.breakLine()
      b.inline(line)
    }
  }
  return b.build(null)
}
