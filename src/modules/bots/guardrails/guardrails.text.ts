// Text helpers shared by the guardrails: folding for case- and accent-insensitive matching with a map back
// to the original text (so a match can be masked where it is), literal phrase matchers, and truncation.

export interface Folded {
  /** Lower case, combining marks removed, compatibility forms unified, invisible format characters dropped. */
  text: string
  /** For each folded UTF-16 unit: where its source character starts in the original text. */
  start: number[]
  /** For each folded UTF-16 unit: where its source character ends in the original text. */
  end: number[]
}

const FORMAT_CHAR = /\p{Cf}/u
const MARKS = /\p{M}/gu

/**
 * NFKD then drop marks: "Café" and "CAFE" meet, full-width and ligature forms become plain letters, and a
 * zero-width space or soft hyphen inside a word cannot hide it from a filter.
 */
export function fold(text: string): Folded {
  let out = ''
  const start: number[] = []
  const end: number[] = []
  let i = 0
  for (const ch of text) {
    const code = ch.codePointAt(0)!
    const next = i + ch.length
    if (code < 0x80) {
      out += code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : ch
      start.push(i)
      end.push(next)
    } else if (!FORMAT_CHAR.test(ch)) {
      const f = ch.normalize('NFKD').replace(MARKS, '').toLowerCase()
      for (let k = 0; k < f.length; k++) {
        start.push(i)
        end.push(next)
      }
      out += f
    }
    i = next
  }
  return { text: out, start, end }
}

/** The folded form of a configured phrase, whitespace collapsed: the key duplicates are judged by. */
export const phraseKey = (phrase: string): string =>
  fold(phrase)
    .text.trim()
    .replace(/[\s-]+/g, ' ')

export const hasWordChar = (s: string): boolean => /[\p{L}\p{N}]/u.test(s)

export interface PhraseHit {
  /** Which entry of the list matched. */
  owner: number
  /** Span in the original text. */
  start: number
  end: number
}

export type PhraseMatcher = (folded: Folded) => PhraseHit[]

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const cache = new Map<string, PhraseMatcher>()
const CACHE_SIZE = 500

/**
 * A matcher for literal phrases (never user-supplied patterns, so nothing can backtrack badly): whole words
 * only — a phrase is not matched inside a longer word — and any run of spaces or hyphens in a phrase
 * matches any such run in the text. `owners[i]` says which configured entry phrase i belongs to.
 */
export function phraseMatcher(phrases: string[], owners: number[] = phrases.map((_, i) => i)): PhraseMatcher {
  const cacheKey = `${phrases.join('\u0000')}\u0001${owners.join(',')}`
  const known = cache.get(cacheKey)
  if (known) return known
  const byKey = new Map<string, number>()
  phrases.forEach((p, i) => {
    const key = phraseKey(p)
    if (key && !byKey.has(key)) byKey.set(key, owners[i])
  })
  const keys = [...byKey.keys()].sort((a, b) => b.length - a.length)
  let matcher: PhraseMatcher
  if (keys.length === 0) matcher = () => []
  else {
    const alternation = keys.map((k) => k.split(' ').map(escape).join('[\\s-]+')).join('|')
    const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alternation})(?![\\p{L}\\p{N}])`, 'gu')
    matcher = (folded) => {
      const hits: PhraseHit[] = []
      for (const m of folded.text.matchAll(re)) {
        const s = m.index!
        const e = s + m[0].length
        hits.push({ owner: byKey.get(m[0].replace(/[\s-]+/g, ' '))!, start: folded.start[s], end: folded.end[e - 1] })
      }
      return hits
    }
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!)
  cache.set(cacheKey, matcher)
  return matcher
}

/** Replace spans of `text` (sorted or not, non-overlapping after merging) by `mask(span)`. */
export function replaceSpans<T extends { start: number; end: number }>(text: string, spans: T[], mask: (span: T) => string): string {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end)
  let out = ''
  let at = 0
  for (const s of sorted) {
    if (s.start < at) continue
    out += text.slice(at, s.start) + mask(s)
    at = s.end
  }
  return out + text.slice(at)
}

/** Length in Unicode code points, as JSON Schema's maxLength counts it. */
export const charLength = (s: string): number => {
  let n = 0
  for (const _ of s) n++
  return n
}

const ELLIPSIS = '…'
const sentences = new Intl.Segmenter('und', { granularity: 'sentence' })

/**
 * Cut `text` to at most `max` code points with an ellipsis: at the last sentence end that keeps at least half
 * the budget, else at the last space, else (one very long word) at the limit. Null when it already fits.
 */
export function truncate(text: string, max: number): string | null {
  if (charLength(text) <= max) return null
  const budget = max - 2 // room for " …"
  let kept = ''
  let keptLength = 0
  for (const { segment } of sentences.segment(text)) {
    const n = charLength(segment)
    if (keptLength + n > budget) break
    kept += segment
    keptLength += n
  }
  kept = kept.trimEnd()
  if (charLength(kept) >= budget / 2) return `${kept} ${ELLIPSIS}`
  const head = Array.from(text)
    .slice(0, budget + 1)
    .join('')
  const space = head.search(/\s\S*$/)
  const cut = space > 0 && charLength(head.slice(0, space)) >= budget / 2 ? head.slice(0, space) : Array.from(head).slice(0, budget).join('')
  return `${cut.trimEnd().replace(/[\s,;:–—-]+$/u, '')}${ELLIPSIS}`
}
