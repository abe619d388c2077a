import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

let words: Set<string> | null = null

/**
 * Whether `word` is an English word, by word-list (274,000 words with their inflections, from SCOWL),
 * read on the first hyphenated wrap a document has (~25 MB in the ingest thread that needs it).
 * Resolved through `require.resolve`, not imported: the bundle must not move the word file's path.
 */
export function isEnglishWord(word: string): boolean {
  if (!words) {
    const index = createRequire(import.meta.url).resolve('word-list')
    words = new Set(readFileSync(join(dirname(index), 'words.txt'), 'utf8').split('\n'))
  }
  return words.has(word.toLowerCase())
}

const LIST_ITEM = /^(?:[-*•+▪◦]|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)])\s+/
/** Columns: a table row, or cells set apart by tabs or runs of spaces. */
const COLUMNS = /\||\t|\S {3,}\S/
const ENDS_SENTENCE = /[.!?:;]["'”’)\]]*$/
/** The narrowest wrap joined for its width alone (addresses and short lines keep their lines). */
const MIN_WRAP_WIDTH = 40

/**
 * "docu-" + "ment" → "document" when the whole is a word; otherwise the hyphen stays and nothing comes
 * between ("self-" + "service" → "self-service").
 */
export function joinWrapped(before: string, after: string): string {
  const head = before.match(/(\p{L}+)-$/u)?.[1]
  const tail = after.match(/^\p{Ll}+/u)?.[0]
  if (head && tail && /(?:^|[^-\p{L}])\p{L}+-$/u.test(before)) return isEnglishWord(head + tail) ? before.slice(0, -1) + after : before + after
  return `${before} ${after}`
}

/**
 * The lines of one paragraph as its writer meant them. A hard wrap (man pages, text e-mails, PDF
 * lines) joins the next line when the two are indented alike and the line before fills most of the
 * paragraph's width, or ends mid-sentence with the next going on in lower case; a word hyphenated across
 * the wrap is made whole (`joinWrapped`). List items, table rows and column layouts keep their lines,
 * and so do short lines (addresses, menus).
 */
export function unwrapLines(lines: readonly string[]): string[] {
  const rows = lines.map((l) => l.replace(/\s+$/, '')).filter((l) => l.trim() !== '')
  const width = rows.reduce((w, l) => Math.max(w, l.trim().length), 0)
  // Each output line as its parts, each with what comes before it (a space; nothing after a kept hyphen), so
  // that every test reads only the last part: a paragraph of 100,000 lines costs linear time (testing the
  // whole joined line each time was quadratic).
  const out: { parts: string[]; glued: boolean }[] = []
  let last: { indent: number; length: number; columns: boolean } | null = null
  for (const row of rows) {
    const text = row.trim()
    const indent = row.length - row.trimStart().length
    const columns = COLUMNS.test(text)
    const line = out.at(-1)
    const prev = line?.parts.at(-1)
    const joins =
      prev !== undefined &&
      last !== null &&
      !last.columns &&
      !columns &&
      !LIST_ITEM.test(text) &&
      indent === last.indent &&
      (/\p{L}-$/u.test(prev) && /^\p{Ll}/u.test(text) ? true : (width >= MIN_WRAP_WIDTH && last.length >= width * 0.6) || (/^\p{Ll}/u.test(text) && !ENDS_SENTENCE.test(prev)))
    if (joins) {
      // A part glued after a kept hyphen follows that hyphen: joinWrapped must see it.
      const before = line!.glued ? `-${prev}` : prev!
      const joined = joinWrapped(before, text)
      if (joined === `${before} ${text}`) {
        line!.parts.push(` ${text}`)
        line!.glued = false
      } else if (joined === before + text) {
        line!.parts.push(text)
        line!.glued = true
      } else line!.parts[line!.parts.length - 1] = line!.glued ? joined.slice(1) : joined
    } else out.push({ parts: [text], glued: false })
    last = { indent, length: text.length, columns }
  }
  return out.map((l) => l.parts.join(''))
}

/** Soft line breaks inside one paragraph (Markdown): only a hyphenated wrap needs repair, the rest reads as a space. */
export function joinHyphenatedWraps(text: string): string {
  return text.replace(/(?<![-\p{L}])(\p{L}+)-[ \t]*\n[ \t]*(\p{Ll}+)/gu, (all, head: string, tail: string) => (isEnglishWord(head + tail) ? head + tail : `${head}-${tail}`))
}
