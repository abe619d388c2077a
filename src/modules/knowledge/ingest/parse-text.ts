import { decodeText, normalizeNewlines } from './decode-text.js'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'
import { unwrapLines } from './unwrap-lines.js'

/**
 * Plain text keeps its lines (lists, addresses and code read wrong once joined), except a paragraph's
 * hard wraps (man pages, text e-mails), which are joined, hyphenated words made whole (`unwrapLines`);
 * runs of spaces and of blank lines are tidied. It has no headings, so one section with an empty path.
 */
export function parseText(input: Uint8Array): ParsedDocument {
  const text = normalizeNewlines(decodeText(input))
  const b = new DocumentBuilder()
  // Blank lines part paragraphs; the next line keeps its indentation, which tells a wrap from a new block.
  for (const block of text.split(/\n(?:[ \t]*\n)+/)) {
    b.breakParagraph()
    for (const line of unwrapLines(block.split('\n'))) {
      b.breakLine()
      b.inline(line)
    }
  }
  return b.build(null)
}
