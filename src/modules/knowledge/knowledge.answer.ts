import { asksForSteps, bestReply } from '../../kernel/ai/extractive.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Retrieval } from './knowledge-search.service.js'
import { termsOf } from './knowledge.text.js'

export interface SearchAnswer {
  content: string
  /** Indexes into the search results (0-based); marker [n] cites results[n - 1]. */
  citations: number[]
  grounded: boolean
}

export const NOTHING_FOUND = 'Nothing in the knowledge base answers this question.'
/** Results an extractive answer may come from (the one whose sentences answer best answers alone). */
const MAX_RESULTS = 5

/**
 * `answer: true` of a search. With the builtin engine the answer is extractive: one to three sentences
 * of the best result (its steps, whole, when the question asks for steps), no headings, never mixed with
 * another document, followed by the [n] of that result (kernel/ai/extractive.ts `bestReply`). With an
 * OpenAI-compatible engine, kernel.ai writes it from the passages (kind 'passage'), and its numbered
 * references are mapped back to the results. Either way, below the gap threshold it says plainly that
 * nothing relevant was found instead of answering.
 */
export async function answerFrom(k: Kernel, query: string, r: Retrieval, threshold: number): Promise<SearchAnswer> {
  if (r.results.length === 0 || r.best < threshold) return { content: NOTHING_FOUND, citations: [], grounded: false }
  return k.ai.provider === 'builtin' ? extractive(query, r) : generated(k, query, r)
}

function extractive(query: string, r: Retrieval): SearchAnswer {
  const candidates = r.results.slice(0, MAX_RESULTS).map((s) => ({
    text: s.candidate.text,
    headings: [s.candidate.title, ...headingPath(s.candidate.heading_path)].filter((h): h is string => !!h),
    found: (text: string) => termsOf(text, s.analyser).filter((t) => s.terms.has(t)),
    weight: s.score,
  }))
  const terms = Math.max(1, ...r.results.slice(0, MAX_RESULTS).map((s) => s.terms.size))
  const reply = bestReply(candidates, terms, asksForSteps(query))
  if (!reply) return { content: NOTHING_FOUND, citations: [], grounded: false }
  return { content: `${reply.text} [${reply.index + 1}]`, citations: [reply.index], grounded: true }
}

/** A chunk's heading path as stored (a JSON array). */
function headingPath(stored: string | null | undefined): string[] {
  try {
    const path: unknown = JSON.parse(stored ?? '[]')
    return Array.isArray(path) ? path.filter((h): h is string => typeof h === 'string') : []
  } catch {
    return []
  }
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
