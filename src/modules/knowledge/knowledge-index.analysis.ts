import { termFrequencies } from './knowledge-ranking.js'
import type { Analyser } from './knowledge.text.js'
import { termsOf } from './knowledge.text.js'

/** What the index stores of a chunk: its title-and-headings terms, its text's terms, their frequencies. */
export interface ChunkTerms {
  head: string[]
  body: string[]
  /** ` term:head:body …` (knowledge-ranking.ts). */
  terms: string
}

/** Pure (no database): run where the document is parsed, the ingest worker, as well as by the index. */
export function analyseChunk(a: Analyser, title: string, headingPath: string[], text: string): ChunkTerms {
  const head = termsOf([title, ...headingPath].join('\n'), a)
  const body = termsOf(text, a)
  return { head, body, terms: termFrequencies(head, body) }
}
