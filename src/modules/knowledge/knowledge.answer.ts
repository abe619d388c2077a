import type { Kernel } from '../../kernel/kernel.js'
import type { Retrieval } from './knowledge-search.service.js'
import { sentencesOf, termsOf } from './knowledge.text.js'

export interface SearchAnswer {
  content: string
  /** Indexes into the search results (0-based); marker [n] cites results[n - 1]. */
  citations: number[]
  grounded: boolean
}

export const NOTHING_FOUND = 'Nothing in the knowledge base answers this question.'
/** Sentences an extractive answer quotes at most. */
const MAX_SENTENCES = 3

/**
 * `answer: true` of a search. With the builtin engine the answer is extractive: the sentences of the
 * returned passages that hold the most question terms, each followed by the [n] of its passage. With an
 * OpenAI-compatible engine, kernel.ai writes it from the passages (kind 'passage'), and its numbered
 * references are mapped back to the results. Either way, below the gap threshold it says plainly that
 * nothing relevant was found instead of answering.
 */
export async function answerFrom(k: Kernel, query: string, r: Retrieval, threshold: number): Promise<SearchAnswer> {
  if (r.results.length === 0 || r.best < threshold) return { content: NOTHING_FOUND, citations: [], grounded: false }
  return k.ai.provider === 'builtin' ? extractive(r) : generated(k, query, r)
}

function extractive(r: Retrieval): SearchAnswer {
  const picked: { result: number; start: number; text: string; weight: number }[] = []
  r.results.forEach((s, result) => {
    for (const sentence of sentencesOf(s.candidate.text)) {
      const found = new Set(termsOf(sentence.text, s.analyser).filter((t) => s.terms.has(t))).size
      if (found === 0) continue
      picked.push({ result, start: sentence.start, text: sentence.text, weight: (found / Math.max(1, s.terms.size)) * s.score })
    }
  })
  picked.sort((a, b) => b.weight - a.weight || a.result - b.result || a.start - b.start)
  const chosen = picked.slice(0, MAX_SENTENCES).sort((a, b) => a.result - b.result || a.start - b.start)
  if (chosen.length === 0) return { content: NOTHING_FOUND, citations: [], grounded: false }
  const content = chosen.map((c) => `${/[.!?]$/.test(c.text) ? c.text : `${c.text}.`} [${c.result + 1}]`).join(' ')
  return { content, citations: [...new Set(chosen.map((c) => c.result))], grounded: true }
}

async function generated(k: Kernel, query: string, r: Retrieval): Promise<SearchAnswer> {
  const gen = await k.ai.generate({
    task: 'Answer the question in a few sentences using only the reference material.',
    transcript: [{ role: 'customer', text: query }],
    sources: r.results.map((s) => ({ kind: 'passage' as const, id: s.candidate.chunk_id, title: s.candidate.title, text: s.candidate.text })),
    instructions: 'After each statement, cite the reference it comes from by its number in brackets, e.g. [1]. If the material does not answer the question, say so.',
  })
  // The engine numbers the references it used in its own order (gen.sources); map them to result positions.
  const used = gen.sources.filter((s) => s.kind === 'passage')
  const position = (n: number) => r.results.findIndex((s) => s.candidate.chunk_id === used[n - 1]?.id)
  const cited = new Set<number>()
  const content = gen.content.replace(/\[(\d{1,2})\]/g, (whole, n: string) => {
    const at = position(Number(n))
    if (at < 0) return ''
    cited.add(at)
    return `[${at + 1}]`
  })
  const citations = cited.size > 0 ? [...cited].sort((a, b) => a - b) : used.map((s) => r.results.findIndex((x) => x.candidate.chunk_id === s.id)).filter((i) => i >= 0)
  return { content: content.replace(/ {2,}/g, ' ').trim(), citations, grounded: gen.grounded }
}
