import MiniSearch from 'minisearch'
import { excerptOf } from './ai.text.js'
import type { AiSource, Citation } from './ai.types.js'
import { normaliseTerm, termsOf } from './ranker.js'

/** Sentences an extractive answer quotes at most. */
const MAX_SENTENCES = 3
/** Passages read at most (they come best first). */
const MAX_PASSAGES = 8
/**
 * The relevance bar: the chosen sentences share two of the question's terms, or a third of them (a
 * short question has one topic word: "How long do refunds take?"). Passages arrive retrieved already.
 */
const MIN_TERMS = 2
const MIN_COVERAGE = 1 / 3
/** Later passages weigh less: the retriever already put the best first. */
const RANK_DECAY = 0.2

export interface ExtractiveAnswer {
  /** Sentences in passage order, each followed by the [n] of its passage (n = position in `passages` + 1). */
  content: string
  /** Passage positions (0-based) cited, ascending. */
  cited: number[]
  /** Kind 'passage' citations in the order of `cited`; excerpt = the sentences used. */
  sources: Citation[]
  /** Share of the question's distinct terms the chosen sentences hold, in [0, 1]. */
  coverage: number
  /** False when no sentence is relevant enough: nothing to say. */
  grounded: boolean
  /** 0.3 + 0.65 × coverage, at most 0.95; 0 when not grounded. */
  confidence: number
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })

function sentencesOf(text: string): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = []
  for (const s of segmenter.segment(text)) {
    const t = s.segment.trim()
    if (t.length > 0) out.push({ text: t, start: s.index })
  }
  return out
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[]

/**
 * The question's terms a sentence holds, as `[...termsOf(text)].filter((t) => q.has(t))` but without the
 * set of all the sentence's terms: every sentence of every passage goes through here.
 */
function foundIn(text: string, q: Set<string>): string[] {
  const found = new Set<string>()
  for (const token of tokenize(text)) {
    const t = normaliseTerm(token)
    if (t !== null && q.has(t)) found.add(t)
  }
  return [...found]
}

export interface ExtractiveOptions {
  /** Terms of a text (default: the ranker's English normalisation); a caller with language-aware stemming passes its own. */
  terms?: (text: string) => Iterable<string>
  /** Relevance of each passage (e.g. retrieval scores); default a decay by position. */
  weights?: number[]
}

/**
 * A generic extractive answer: the sentences of the passages that hold the most question terms, each
 * cited [n]. Below the relevance bar (MIN_TERMS, MIN_COVERAGE) it is not grounded and says nothing.
 */
export function extractiveAnswer(question: string, passages: AiSource[], opts: ExtractiveOptions = {}): ExtractiveAnswer {
  const terms = opts.terms ? (t: string) => new Set(opts.terms!(t)) : termsOf
  const matches = opts.terms ? (t: string, q: Set<string>) => [...terms(t)].filter((x) => q.has(x)) : foundIn
  const weightOf = (i: number) => opts.weights?.[i] ?? 1 / (1 + RANK_DECAY * i)
  const none: ExtractiveAnswer = { content: '', cited: [], sources: [], coverage: 0, grounded: false, confidence: 0 }
  const q = terms(question)
  if (q.size === 0) return none
  const picked: { passage: number; start: number; text: string; weight: number; terms: string[] }[] = []
  passages.slice(0, MAX_PASSAGES).forEach((p, passage) => {
    for (const s of sentencesOf(p.text)) {
      const found = matches(s.text, q)
      if (found.length === 0) continue
      picked.push({ passage, start: s.start, text: s.text, weight: (found.length / q.size) * weightOf(passage), terms: found })
    }
  })
  if (picked.length === 0) return none
  picked.sort((a, b) => b.weight - a.weight || a.passage - b.passage || a.start - b.start)
  const best = picked[0].weight
  const chosen = picked
    .filter((p) => p.weight >= best * 0.5)
    .slice(0, MAX_SENTENCES)
    .sort((a, b) => a.passage - b.passage || a.start - b.start)
  const matched = new Set(chosen.flatMap((c) => c.terms)).size
  const coverage = matched / q.size
  if (matched < MIN_TERMS && coverage < MIN_COVERAGE - 1e-9) return none
  const content = chosen.map((c) => `${/[.!?]$/.test(c.text) ? c.text : `${c.text}.`} [${c.passage + 1}]`).join(' ')
  const cited = [...new Set(chosen.map((c) => c.passage))].sort((a, b) => a - b)
  const sources: Citation[] = cited.map((i) => {
    const used = chosen.filter((c) => c.passage === i)
    return {
      kind: 'passage',
      id: passages[i].id,
      title: passages[i].title ?? null,
      excerpt: excerptOf(used.map((c) => c.text).join(' ')),
      score: Math.round((Math.max(...used.map((c) => c.weight)) / best) * 100) / 100,
    }
  })
  const confidence = Math.round(Math.min(0.95, 0.3 + 0.65 * coverage) * 100) / 100
  return { content, cited, sources, coverage: Math.round(coverage * 100) / 100, grounded: true, confidence }
}
