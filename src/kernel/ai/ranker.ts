import MiniSearch from 'minisearch'
import type { AiSource } from './ai.types.js'

// Words that carry no topic: dropping them keeps "hi, how are you" from matching every template.
const STOP_WORDS = new Set(
  ('a about after again all am an and any are as at be been but by can could did do does for from had has have hello hey hi how ' +
    'i if in into is it its just me my no not of on or our please so some than thank thanks that the their them then there ' +
    'these they this to too us very was we were what when where which who why will with would yes you your')
    .split(' '),
)

/** Lower-case, drop stop words, fold common English endings so "prices" and "pricing" meet "price". */
export function normaliseTerm(term: string): string | null {
  const t = term.toLowerCase()
  if (t.length < 2 || STOP_WORDS.has(t)) return null
  if (t.length > 5 && t.endsWith('ing')) return t.slice(0, -3)
  if (t.length > 4 && t.endsWith('ies')) return `${t.slice(0, -3)}y`
  if (t.length > 4 && t.endsWith('es')) return t.slice(0, -2)
  if (t.length > 4 && t.endsWith('ed')) return t.slice(0, -2)
  if (t.length > 3 && t.endsWith('s') && !t.endsWith('ss')) return t.slice(0, -1)
  return t
}

/** The distinct normalised terms of a text (the ranker's view of it). */
export function termsOf(text: string): Set<string> {
  return new Set(
    MiniSearch.getDefault('tokenize')(text)
      .map((t: string) => normaliseTerm(t))
      .filter((t: string | null): t is string => !!t),
  )
}

export interface Ranked {
  source: AiSource
  /** BM25+ score from MiniSearch (unbounded). */
  score: number
  /** Distinct query terms this source matched. */
  matched: number
  /** Share of the query's distinct terms this source matched, in [0, 1]. */
  coverage: number
}

/**
 * BM25 ranking (MiniSearch's BM25+) of the sources against a query, best first. Prefix and light fuzzy
 * matching absorb word forms and typos; only sources matching at least one query term come back.
 */
export function rankSources(query: string, sources: AiSource[], limit = 5): Ranked[] {
  if (sources.length === 0) return []
  const queryTerms = termsOf(query)
  if (queryTerms.size === 0) return []
  const index = new MiniSearch<{ key: number; title: string; text: string }>({
    idField: 'key',
    fields: ['title', 'text'],
    processTerm: (t) => normaliseTerm(t),
    searchOptions: {
      boost: { title: 2 },
      prefix: (t) => t.length >= 4,
      fuzzy: (t) => (t.length >= 6 ? 0.2 : false),
      combineWith: 'OR',
    },
  })
  index.addAll(sources.map((s, key) => ({ key, title: s.title ?? '', text: s.text })))
  return index
    .search([...queryTerms].join(' '))
    .slice(0, limit)
    .map((r) => {
      const matched = new Set(r.queryTerms).size
      return { source: sources[r.id as number], score: r.score, matched, coverage: matched / queryTerms.size }
    })
}
