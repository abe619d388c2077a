import type { ParsedDocument, Section } from './document-builder.js'
import { tooManyChunks } from './ingest-limits.js'

export interface Chunk {
  position: number
  text: string
  /** [start, end) in the document's text: doc.text.slice(start, end) === text. */
  start: number
  end: number
  headingPath: string[]
  /** The page the chunk's text is on (PDF: a chunk never spans two pages), else null. */
  page: number | null
}

// Where a chunk may end, strongest first. A chunk ends at the strongest kind of break that fits, and at
// the last one of that kind: whole paragraphs when they fit, else whole sentences, lines, words.
const PARAGRAPH = 4
const SENTENCE = 3
const LINE = 2
const WORD = 1

/**
 * Splits a document into chunks of at most `size` characters that follow its structure: sections
 * (headings) first, then paragraphs, sentences, lines and words; a word is cut only when it alone is longer
 * than `size`. Each chunk after the first of a section repeats up to `overlap` characters of the one
 * before it, starting at a word. Overlap is capped at half the size so that every chunk moves forward.
 */
export function chunkDocument(doc: ParsedDocument, opts: { size: number; overlap: number; maxChunks?: number }): Chunk[] {
  const size = Math.max(1, Math.floor(opts.size))
  const overlap = Math.max(0, Math.min(Math.floor(opts.overlap) || 0, Math.floor(size / 2)))
  const out: Chunk[] = []
  const sections = splitAtPages(coveringSections(doc), doc.pages)
  const max = opts.maxChunks ?? Infinity
  sections.forEach((section, i) => {
    if (!isBareParent(doc.text, section, sections[i + 1])) chunkSection(doc.text, section, size, overlap, out, max)
  })
  const pages = doc.pages
  for (let i = 0; i < out.length; i++) {
    out[i]!.position = i
    if (pages && pages.length) out[i]!.page = pageAt(pages, out[i]!.start)
  }
  return out
}

// Sections in order without overlaps; text outside every section (when a caller built the document by
// hand) is still chunked, with an empty heading path.
function coveringSections(doc: ParsedDocument): Section[] {
  const len = doc.text.length
  if (!doc.sections.length) return [{ headingPath: [], start: 0, end: len }]
  const sorted = [...doc.sections].sort((a, b) => a.start - b.start)
  const out: Section[] = []
  let at = 0
  for (const s of sorted) {
    const start = Math.max(s.start, at, 0)
    const end = Math.min(s.end, len)
    if (start > at && /\S/.test(doc.text.slice(at, start))) out.push({ headingPath: [], start: at, end: start })
    if (end > start) out.push({ headingPath: s.headingPath, start, end })
    at = Math.max(at, end)
  }
  if (at < len && /\S/.test(doc.text.slice(at))) out.push({ headingPath: [], start: at, end: len })
  return out
}

/**
 * A section that is only its heading, followed by its first subsection ("Installation" then "Download"),
 * makes no chunk: the heading is in the heading path of every chunk below it, and alone it answers nothing.
 */
export function isBareParent(text: string, section: Section, next: Section | undefined): boolean {
  const heading = section.headingPath[section.headingPath.length - 1]
  if (heading === undefined || !next || next.headingPath.length <= section.headingPath.length) return false
  if (!section.headingPath.every((h, i) => next.headingPath[i] === h)) return false
  return text.slice(section.start, section.end).trim() === heading
}

// A chunk holds the text of one page, as PDF loaders split by page: the page a citation names is the page
// the passage is on, and the overlap does not carry a previous page's text onto the next.
function splitAtPages(sections: Section[], pages: ParsedDocument['pages']): Section[] {
  if (!pages || pages.length < 2) return sections
  const starts = pages.map((p) => p.start).filter((x, i, all) => i > 0 && x > all[i - 1]!)
  const out: Section[] = []
  let k = 0
  for (const s of sections) {
    let start = s.start
    while (k < starts.length && starts[k]! <= start) k++
    for (let j = k; j < starts.length && starts[j]! < s.end; j++) {
      out.push({ headingPath: s.headingPath, start, end: starts[j]! })
      start = starts[j]!
    }
    out.push({ headingPath: s.headingPath, start, end: s.end })
  }
  return out
}

function chunkSection(text: string, section: Section, size: number, overlap: number, out: Chunk[], max: number): void {
  let c = skipSpace(text, section.start, section.end)
  let e = section.end
  while (e > c && isSpace(text.charCodeAt(e - 1))) e--
  if (c >= e) return
  // The break right after the heading's own line does not count as a paragraph: a chunk holding only
  // "Installation" is useless to a search.
  const heading = section.headingPath[section.headingPath.length - 1]
  const headingEnd = heading !== undefined && text.startsWith(heading, c) ? c + heading.length : -1
  const minFill = Math.floor(size / 8)
  let prevStart = -1
  let prevEnd = -1
  while (c < e) {
    const o = prevEnd >= 0 && overlap > 0 ? overlapStart(text, prevStart, prevEnd, c, overlap) : c
    const [start, end] = pickEnd(text, o, c, e, size, minFill, headingEnd)
    // Stop at the limit rather than after: a hostile text would make hundreds of thousands.
    if (out.length >= max) throw tooManyChunks(max)
    out.push({ position: 0, text: text.slice(start, end), start, end, headingPath: section.headingPath, page: null })
    prevStart = start
    prevEnd = end
    c = skipSpace(text, end, e)
  }
}

// Up to `overlap` characters before prevEnd, starting at a word; none when only spaces would repeat.
function overlapStart(text: string, prevStart: number, prevEnd: number, c: number, overlap: number): number {
  if (c - prevEnd > overlap) return c
  const p = wordStartFrom(text, Math.max(prevStart, prevEnd - overlap), prevEnd)
  return p < prevEnd ? p : c
}

/** Chooses where the chunk that starts at `o` (overlap) with new text from `c` ends: [start, end]. */
function pickEnd(text: string, o: number, c: number, e: number, size: number, minFill: number, headingEnd: number): [number, number] {
  if (e - o <= size) return [o, e]
  if (e - c <= size) return [Math.min(c, wordStartFrom(text, Math.max(o, e - size), c)), e]
  const limit = o + size // the furthest end that keeps the whole overlap
  const reach = c + size // the furthest end at all, with less overlap
  const within: number[] = [0, 0, 0, 0, 0] // per kind: the last break ≤ limit
  const beyond: number[] = [0, 0, 0, 0, 0] // per kind: the first break in (limit, reach]
  let early = 0 // the last break too close to c to make a chunk, used only when there is nothing else
  let found = false
  for (let p = reach; p > c; p--) {
    const kind = breakKind(text, p, headingEnd)
    if (kind === 0) continue
    if (p > limit) {
      beyond[kind] = p
      found = true
    } else if (p - c >= minFill) {
      if (!within[kind]) within[kind] = p
      found = true
      if (kind === PARAGRAPH) break
    } else if (found) break
    else {
      early = p
      break
    }
  }
  for (let kind = PARAGRAPH; kind >= WORD; kind--) {
    if (within[kind]) return [o, within[kind]!]
    // The same kind of break a little further on beats a weaker one: give up some overlap for it.
    if (beyond[kind]) return [Math.min(c, wordStartFrom(text, Math.max(o, beyond[kind]! - size), c)), beyond[kind]!]
  }
  if (early) return [o, early]
  // One word longer than the chunk: cut it, but never inside a character (surrogate pair, accent, ZWJ).
  const from = limit > c ? o : c
  return [from, safeCut(text, from + size, c)]
}

/** 0 when no chunk may end at p, else the kind of break: text[p-1] ends a word and text[p] does not go on with it. */
function breakKind(text: string, p: number, headingEnd: number): number {
  const before = text.charCodeAt(p - 1)
  if (isSpace(before)) return 0
  const at = text.charCodeAt(p)
  if (!isSpace(at)) {
    if (isCjkStop(before) && !isContinuation(text, p)) return SENTENCE
    if ((isCjk(before) || isCjk(at)) && !isContinuation(text, p)) return WORD
    return 0
  }
  if (p === headingEnd) return WORD
  let newlines = 0
  for (let i = p; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 10) newlines++
    else if (!isSpace(ch)) break
    if (newlines >= 2) return PARAGRAPH
  }
  if (endsSentence(text, p)) return SENTENCE
  return newlines === 1 ? LINE : WORD
}

function endsSentence(text: string, p: number): boolean {
  let i = p - 1
  // closing quotes and brackets after the full stop: He said "yes." Then…
  while (i > 0 && CLOSERS.has(text.charCodeAt(i))) i--
  const ch = text.charCodeAt(i)
  return ch === 46 /* . */ || ch === 33 /* ! */ || ch === 63 /* ? */ || ch === 0x2026 /* … */ || isCjkStop(ch)
}

const CLOSERS = new Set([34, 39, 41, 93, 125, 0x2019, 0x201d, 0xbb, 0x300d, 0x300f, 0xff09])

function isCjkStop(ch: number): boolean {
  return ch === 0x3002 || ch === 0xff01 || ch === 0xff1f || ch === 0xff0e
}

// Scripts written without spaces between words: any boundary between two of their characters is a word's.
function isCjk(ch: number): boolean {
  return (
    (ch >= 0x3040 && ch <= 0x30ff) ||
    (ch >= 0x3400 && ch <= 0x4dbf) ||
    (ch >= 0x4e00 && ch <= 0x9fff) ||
    (ch >= 0xf900 && ch <= 0xfaff) ||
    (ch >= 0xff00 && ch <= 0xffef) ||
    (ch >= 0x3000 && ch <= 0x303f)
  )
}

function isSpace(ch: number): boolean {
  return (
    ch === 32 ||
    ch === 10 ||
    ch === 9 ||
    ch === 13 ||
    ch === 12 ||
    ch === 11 ||
    ch === 0xa0 ||
    ch === 0x3000 ||
    (ch >= 0x2000 && ch <= 0x200a) ||
    ch === 0x2028 ||
    ch === 0x2029 ||
    ch === 0x202f ||
    ch === 0x205f ||
    ch === 0xfeff
  )
}

// Each of these joins the character before it; a joiner or a selector alone in the class is what is meant.
// eslint-disable-next-line no-misleading-character-class -- the class lists single code points, not a sequence
const MARK = /^[\p{M}\u200d\ufe00-\ufe0f]/u

/** True when the character at p belongs to the one before it (low surrogate, combining mark, ZWJ sequence). */
function isContinuation(text: string, p: number): boolean {
  const ch = text.charCodeAt(p)
  if (isLowSurrogate(ch)) return true
  if (text.charCodeAt(p - 1) === 0x200d) return true
  // emoji skin-tone modifiers U+1F3FB–1F3FF
  if (ch === 0xd83c) {
    const lo = text.charCodeAt(p + 1)
    if (lo >= 0xdffb && lo <= 0xdfff) return true
  }
  return ch >= 0x300 && MARK.test(text.slice(p, p + 1))
}

// A cluster longer than the chunk (a long ZWJ emoji sequence in a tiny chunk) is cut between its code
// points; a surrogate pair only when the chunk is one unit long.
function safeCut(text: string, p: number, c: number): number {
  let q = p
  while (q > c && isContinuation(text, q)) q--
  if (q > c) return q
  q = p
  while (q > c && isLowSurrogate(text.charCodeAt(q))) q--
  return q > c ? q : p
}

function isLowSurrogate(ch: number): boolean {
  return ch >= 0xdc00 && ch <= 0xdfff
}

function skipSpace(text: string, i: number, end: number): number {
  while (i < end && isSpace(text.charCodeAt(i))) i++
  return i
}

// The first word start at or after `from`, or `end` when there is none before it.
function wordStartFrom(text: string, from: number, end: number): number {
  let p = from
  if (p > 0 && !isSpace(text.charCodeAt(p - 1)) && !isSpace(text.charCodeAt(p)) && !isCjk(text.charCodeAt(p)) && !isCjk(text.charCodeAt(p - 1))) {
    while (p < end && !isSpace(text.charCodeAt(p))) p++
  }
  while (p < end && (isSpace(text.charCodeAt(p)) || isContinuation(text, p))) p++
  return p
}

function pageAt(pages: { page: number; start: number; end: number }[], pos: number): number {
  let lo = 0
  let hi = pages.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (pages[mid]!.start <= pos) lo = mid
    else hi = mid - 1
  }
  return pages[lo]!.page
}
