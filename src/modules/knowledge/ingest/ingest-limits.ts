import { constants } from 'node:buffer'
import { inflateRawSync } from 'node:zlib'
import { DocumentParseError } from './parse-error.js'

/**
 * What one document may cost to read (config.knowledge, KNOWLEDGE_MAX_*): a hostile file — a ZIP bomb, a
 * page of text that makes hundreds of thousands of chunks — fails alone with the limit it crossed, instead
 * of taking the process's memory and the database with it.
 */
export interface IngestLimits {
  /** The most bytes a ZIP-based file (DOCX) may unpack to, all its entries together. */
  maxInflatedBytes: number
  /** The most characters of text a document may have once parsed. */
  maxTextChars: number
  /** The most chunks a document may be split into. */
  maxChunks: number
}

/** A document over one of the limits: the message names the limit and its setting (shown on the document). */
export class DocumentLimitError extends DocumentParseError {
  override name = 'DocumentLimitError'
}

const mib = (n: number) => (n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MiB` : `${n} bytes`)

export function textTooLong(chars: number, max: number): DocumentLimitError {
  return new DocumentLimitError(
    `The document's text is longer than ${max.toLocaleString('en-US')} characters (${chars.toLocaleString('en-US')}; limit KNOWLEDGE_MAX_TEXT_CHARS): split it into smaller documents.`,
  )
}

export function tooManyChunks(max: number): DocumentLimitError {
  return new DocumentLimitError(`The document makes more than ${max.toLocaleString('en-US')} passages (limit KNOWLEDGE_MAX_CHUNKS): split it into smaller documents or use a larger chunk size.`)
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const ZIP64_LOCATOR = 0x07064b50
const ZIP64_EOCD = 0x06064b50

/**
 * Unpacks every entry of a ZIP archive with a byte budget and throws DocumentLimitError as soon as the
 * entries together pass `maxBytes`: zlib stops at the budget (maxOutputLength is checked after each block
 * of output), so a 300 MiB `word/document.xml` costs `maxBytes` of work and memory, not 300 MiB. Sizes
 * the archive declares are not trusted (a bomb declares what it likes). The output is thrown away: this
 * only proves the archive is safe to hand to the library that reads it, so an archive this cannot walk
 * entry by entry is refused here rather than handed on unchecked.
 */
export function checkZipInflatedSize(input: Uint8Array, maxBytes: number, label = 'The file'): void {
  const buf = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  const unreadable = () => new DocumentParseError(`${label} is not a readable ZIP archive.`)
  const dir = centralDirectory(buf)
  if (!dir) throw unreadable()
  let total = 0
  let at = dir.offset
  for (let i = 0; i < dir.entries; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw unreadable()
    const method = buf.readUInt16LE(at + 10)
    let compressed = buf.readUInt32LE(at + 20)
    let declared = buf.readUInt32LE(at + 24)
    const nameLength = buf.readUInt16LE(at + 28)
    const extraLength = buf.readUInt16LE(at + 30)
    const commentLength = buf.readUInt16LE(at + 32)
    let local = buf.readUInt32LE(at + 42)
    // ZIP64: the real sizes and offset are in the extra field (id 1), in this order, for those set to ~0.
    const extra = buf.subarray(at + 46 + nameLength, at + 46 + nameLength + extraLength)
    for (let p = 0; p + 4 <= extra.length;) {
      const id = extra.readUInt16LE(p)
      const size = extra.readUInt16LE(p + 2)
      if (id === 1) {
        let q = p + 4
        const next = () => {
          const v = q + 8 <= extra.length ? Number(extra.readBigUInt64LE(q)) : 0
          q += 8
          return v
        }
        if (declared === 0xffffffff) declared = next()
        if (compressed === 0xffffffff) compressed = next()
        if (local === 0xffffffff) local = next()
      }
      p += 4 + size
    }
    at += 46 + nameLength + extraLength + commentLength
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL) throw unreadable()
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
    if (start + compressed > buf.length) throw unreadable()
    const data = buf.subarray(start, start + compressed)
    const budget = maxBytes - total
    if (method === 0) total += data.length
    else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, Math.min(budget + 1, constants.MAX_LENGTH)) }).length
      } catch (err) {
        if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') total = maxBytes + 1
        else throw unreadable()
      }
    } else throw new DocumentParseError(`${label} uses a ZIP compression method that cannot be read (${method}).`)
    if (total > maxBytes) {
      throw new DocumentLimitError(`${label} unpacks to more than ${mib(maxBytes)} (limit KNOWLEDGE_MAX_INFLATED_BYTES): it is refused as a possible ZIP bomb; split it into smaller documents.`)
    }
  }
}

/** Where the central directory starts and how many entries it lists, or null when this is not a ZIP archive. */
function centralDirectory(buf: Buffer): { offset: number; entries: number } | null {
  const from = Math.max(0, buf.length - 22 - 0xffff)
  for (let p = buf.length - 22; p >= from; p--) {
    if (buf.readUInt32LE(p) !== EOCD) continue
    let entries = buf.readUInt16LE(p + 10)
    let offset = buf.readUInt32LE(p + 16)
    const locator = p - 20
    if ((entries === 0xffff || offset === 0xffffffff) && locator >= 0 && buf.readUInt32LE(locator) === ZIP64_LOCATOR) {
      const z = Number(buf.readBigUInt64LE(locator + 8))
      if (z + 56 > buf.length || buf.readUInt32LE(z) !== ZIP64_EOCD) return null
      entries = Number(buf.readBigUInt64LE(z + 32))
      offset = Number(buf.readBigUInt64LE(z + 48))
    }
    return offset < buf.length ? { offset, entries } : null
  }
  return null
}
