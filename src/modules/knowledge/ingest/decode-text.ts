import { DocumentParseError } from './parse-error.js'

/**
 * Bytes of a text format → a string: a byte-order mark wins, then a charset the document declares
 * (HTML's <meta charset>), then UTF-8. Invalid sequences become U+FFFD rather than failing the document.
 */
export function decodeText(input: Uint8Array, declared?: string | null): string {
  let encoding = 'utf-8'
  let skip = 0
  if (input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf) skip = 3
  else if (input[0] === 0xff && input[1] === 0xfe) [encoding, skip] = ['utf-16le', 2]
  else if (input[0] === 0xfe && input[1] === 0xff) [encoding, skip] = ['utf-16be', 2]
  else if (declared) encoding = declared.toLowerCase()
  let decoder: TextDecoder
  try {
    decoder = new TextDecoder(encoding)
  } catch {
    decoder = new TextDecoder('utf-8')
  }
  const text = decoder.decode(input.subarray(skip))
  if (looksBinary(text)) throw new DocumentParseError('The file does not look like text: it contains binary data.')
  return text
}

// NUL characters do not occur in text files; a few in the first 8 KB means an image, archive or the like.
function looksBinary(text: string): boolean {
  const head = text.slice(0, 8192)
  let nul = 0
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0) nul++
  return nul > 0 && nul >= head.length / 1000
}

/** Control characters other than tab and newlines are dropped, line endings become \n. */
export function normalizeNewlines(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n\n')
    .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '')
}
