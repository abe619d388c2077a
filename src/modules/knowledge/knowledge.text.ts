import { LANGUAGE_ANALYSERS } from './knowledge.languages.js'

/**
 * Text analysis shared by indexing and search, done in JS so SQLite (FTS5) and PostgreSQL (tsvector) see
 * exactly the same terms: NFKC, lower case, split on anything that is not a letter or a digit, drop stop
 * words, stem with the Snowball stemmer of the base's language. A language without a stemmer is analysed
 * the same way without stemming or stop words.
 */
export interface Analyser {
  language: string
  /** Stem of one lower-case token, or null for a stop word. */
  term(token: string): string | null
}

const TOKEN = /[\p{L}\p{N}]+/gu
/** Longer tokens are ids or garbage; they would only bloat the index. */
const MAX_TOKEN = 40

const cache = new Map<string, Analyser>()

export function analyserFor(language: string): Analyser {
  const lang = language.toLowerCase().split('-')[0]
  let a = cache.get(lang)
  if (!a) {
    const known = LANGUAGE_ANALYSERS[lang]
    const stop = known?.stopWords ?? new Set<string>()
    const stem = known?.stem ?? ((w: string) => w)
    const memo = new Map<string, string | null>()
    a = {
      language: lang,
      term(token) {
        let t = memo.get(token)
        if (t !== undefined) return t
        t = token.length < 2 && !/\d/.test(token) ? null : stop.has(token) ? null : stem(token) || token
        // Stemming costs more than a map lookup; a bounded memo keeps memory flat over a large corpus.
        if (memo.size > 50_000) memo.clear()
        memo.set(token, t)
        return t
      },
    }
    cache.set(lang, a)
  }
  return a
}

const NON_ASCII = /[^\x00-\x7f]/

/** Every token of `text` with its character range, in order. */
export function* tokensOf(text: string): Generator<{ token: string; start: number; end: number }> {
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0]
    if (raw.length > MAX_TOKEN) continue
    // NFKC leaves ASCII as it is: only other text pays for normalising (every chunk and excerpt runs this).
    yield { token: (NON_ASCII.test(raw) ? raw.normalize('NFKC') : raw).toLowerCase(), start: m.index!, end: m.index! + raw.length }
  }
}

/** The analysed terms of `text` in order (repeats kept: term frequency matters to the ranking). */
export function termsOf(text: string, a: Analyser): string[] {
  const out: string[] = []
  for (const { token } of tokensOf(text)) {
    const t = a.term(token)
    if (t) out.push(t)
  }
  return out
}

/** Distinct terms of a question, in order of appearance: what a search looks for. */
export function queryTerms(query: string, a: Analyser): string[] {
  return [...new Set(termsOf(query, a))].slice(0, 32)
}

/** Marks around matched words in excerpts: plain text (no HTML to escape), rare in real documents. */
export const MARK_OPEN = '«'
export const MARK_CLOSE = '»'
const EXCERPT_CHARS = 280

/**
 * An excerpt of a chunk around its densest cluster of matched terms, matched words wrapped in «…».
 * The window is cut at word boundaries; an ellipsis says when text was left out on either side.
 */
export function markedExcerpt(text: string, terms: ReadonlySet<string>, a: Analyser, max = EXCERPT_CHARS): string {
  const hits: { start: number; end: number }[] = []
  for (const t of tokensOf(text)) {
    const term = a.term(t.token)
    if (term && terms.has(term)) hits.push(t)
  }
  let from = 0
  if (text.length > max && hits.length > 0) {
    // The window (of max characters) holding the most hits, starting a little before its first hit.
    let best = 0
    let bestCount = 0
    for (let i = 0, j = 0; i < hits.length; i++) {
      while (j < hits.length && hits[j].end - hits[i].start <= max) j++
      if (j - i > bestCount) {
        bestCount = j - i
        best = i
      }
    }
    from = Math.max(0, Math.min(hits[best].start - 40, text.length - max))
    const space = text.lastIndexOf(' ', from)
    if (from > 0 && space >= 0 && from - space < 20) from = space + 1
  }
  let to = Math.min(text.length, from + max)
  if (to < text.length) {
    const space = text.lastIndexOf(' ', to)
    if (space > from + max / 2) to = space
  }
  let out = ''
  let at = from
  for (const h of hits) {
    if (h.start < from || h.end > to) continue
    out += text.slice(at, h.start) + MARK_OPEN + text.slice(h.start, h.end) + MARK_CLOSE
    at = h.end
  }
  out += text.slice(at, to)
  out = out.replace(/\s+/g, ' ').trim()
  return `${from > 0 ? '…' : ''}${out}${to < text.length ? '…' : ''}`
}
