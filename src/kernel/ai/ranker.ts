import MiniSearch from 'minisearch'
import type { AiSource } from './ai.types.js'

// Words that carry no topic: dropping them keeps "hi, how are you" from matching every template.
const STOP_WORDS = new Set(
  (
    'a about after again all am an and any are as at be been but by can could did do does for from had has have hello hey hi how ' +
    'i if in into is it its just me my no not of on or our please so some than thank thanks that the their them then there ' +
    'these they this to too us very was we were what when where which who why will with would yes you your'
  ).split(' '),
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

/** A draft source with its calibrated relevance: the share of what the conversation asks that it holds. */
export interface Relevant {
  source: AiSource
  /** In [0, 1], on the scale of knowledge search scores (see rankByRelevance). */
  relevance: number
  /** Distinct question terms it holds. */
  matched: number
}

/** How much of what a source misses of the question the context (story, earlier messages) can make up. */
const CONTEXT_SHARE = 0.25

/**
 * How much a source reads like prose rather than navigation, in [0.2, 1]. An index page is mostly links
 * (markdown or bare URLs) or a column of short lines without sentence punctuation; it names every topic,
 * so it matches many words of any long message, yet answers none. Knowledge ranking has its own
 * boilerplate factor at ingestion; this one holds for any source (a template of links too).
 */
export function proseQuality(text: string): number {
  const chars = text.replace(/\s+/g, '').length
  if (chars === 0) return 0.2
  let linkChars = 0
  for (const m of text.matchAll(/\[[^\]\n]{0,200}\]\([^)\s]{1,500}\)|\bhttps?:\/\/\S+|\bwww\.\S+/g)) linkChars += m[0].replace(/\s+/g, '').length
  const lines = text
    .split(/\n/)
    .map((l) => l.trim())
    .filter(Boolean)
  // A line like a link label: a few words, no sentence end. Only a column of them counts (a short text is not one).
  const labels = lines.length >= 5 ? lines.filter((l) => l.split(/\s+/).length <= 6 && !/[.!?:;]["')\]]?$/.test(l)).length / lines.length : 0
  const navigation = Math.max(linkChars / chars, labels)
  return Math.round((1 - 0.8 * Math.min(1, Math.max(0, (navigation - 0.2) / 0.4))) * 1000) / 1000
}

/** Word forms meet: "refund"/"refunds" normalise alike, and a stem meets its longer form ("pric"/"price"). */
function meets(a: string, b: string): boolean {
  if (a === b) return true
  const [short, long] = a.length <= b.length ? [a, b] : [b, a]
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short)
}

/**
 * The sources ranked by calibrated relevance for a conversation (thread-query.ts), best first. Like a
 * knowledge search score, relevance is the idf-weighted share of the question's terms a source holds
 * (idf over the candidates: a term every source has tells little), so a source holding every question
 * term scores 1 and one holding half the question's weight 0.5:
 *
 *   relevance = quality × (q + c × (1 − q) × x),   q, x: shares of the question and of the weighted context
 *
 * with c = 0.25 and quality = proseQuality. The context lifts a source that answers part of the question
 * and breaks ties between sources that answer all of it, but never stands in for the question, so neither
 * a long e-mail's story nor an earlier topic outweighs the latest question. A word no candidate holds
 * counts as if one did: among a few templates the idf of an unseen word would outweigh all they share.
 * A source that already has a calibrated relevance (a knowledge
 * passage's search score) keeps the lower of the two: this ranking cannot promote what the corpus-wide
 * one found weak, and that one cannot promote what does not address the latest message.
 */
export function rankByRelevance(
  query: { question: readonly { term: string; weight: number }[]; context: readonly { term: string; weight: number }[] },
  sources: readonly (AiSource & { relevance?: number | null })[],
  limit = 5,
): Relevant[] {
  if (sources.length === 0 || query.question.length === 0) return []
  const termsOfSource = sources.map((s) => [...termsOf(`${s.title ?? ''}\n${s.text}`)])
  const holds = (i: number, term: string) => termsOfSource[i].some((t) => meets(t, term))
  const all = [...query.question, ...query.context]
  const idfOf = new Map<string, number>()
  for (const { term } of all) {
    let df = 0
    for (let i = 0; i < sources.length; i++) if (holds(i, term)) df++
    df = Math.max(1, df)
    idfOf.set(term, Math.log(1 + (sources.length - df + 0.5) / (df + 0.5)))
  }
  const total = (list: readonly { term: string; weight: number }[]) => list.reduce((n, q) => n + q.weight * idfOf.get(q.term)!, 0)
  const questionWeight = total(query.question)
  const contextWeight = total(query.context)
  const out: (Relevant & { context: number })[] = []
  sources.forEach((source, i) => {
    const held = (list: readonly { term: string; weight: number }[]) => list.filter((q) => holds(i, q.term))
    const asked = held(query.question)
    if (asked.length === 0) return
    const q = total(asked) / questionWeight
    const x = contextWeight > 0 ? total(held(query.context)) / contextWeight : 0
    const quality = proseQuality(source.text)
    let relevance = Math.min(1, q + CONTEXT_SHARE * (1 - q) * x) * quality
    if (source.relevance != null) relevance = Math.min(relevance, source.relevance)
    out.push({ source, relevance: Math.round(relevance * 10000) / 10000, matched: asked.length, context: x * quality })
  })
  return out
    .sort((a, b) => b.relevance - a.relevance || b.context - a.context || b.matched - a.matched)
    .slice(0, limit)
    .map(({ context: _context, ...r }) => r)
}
