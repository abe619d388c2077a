import type { AiSource } from '../../kernel/ai/ai.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { searchResultOf, type KnowledgeSearchResultT } from '../knowledge/knowledge.search.schemas.js'

export type Passage = Awaited<ReturnType<Services['knowledge']['search']['passages']>>[number]

/** What the engine reads of a run's input: the text, or the JSON as text (its keys and values count as words). */
export const textOf = (input: { text?: string; json?: unknown }): string => input.text ?? JSON.stringify(input.json ?? {})

/** Knowledge passages for the input from the agent's bases (the knowledge service skips a base deleted since). */
export async function passagesFor(services: Services, tenant: Tenant, kbIds: string[], text: string, opts: { recordGaps?: boolean } = {}): Promise<Passage[]> {
  return kbIds.length > 0 ? services.knowledge.search.passages(tenant, text, { knowledgeBaseIds: kbIds, topK: 5, recordGaps: opts.recordGaps }) : []
}

export const sourceOf = (p: Passage): AiSource => ({ kind: 'passage', id: p.chunk_id, title: p.title, text: p.text })

/** The passages an answer cites, as POST /knowledge/search returns them. */
export function citationsOf(passages: Passage[], cited: string[]): KnowledgeSearchResultT[] {
  return cited
    .map((id) => passages.find((p) => p.chunk_id === id))
    .filter((p): p is Passage => !!p)
    .map(searchResultOf)
}
