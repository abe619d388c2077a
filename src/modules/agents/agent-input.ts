import type { AiSource } from '../../kernel/ai/ai.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { KnowledgeSearchResultT } from '../knowledge/knowledge.search.schemas.js'
import { AppError } from '../../kernel/errors.js'

export type Passage = Awaited<ReturnType<Services['knowledge']['search']['passages']>>[number]

/** What the engine reads of a run's input: the text, or the JSON as text (its keys and values count as words). */
export const textOf = (input: { text?: string; json?: unknown }): string => input.text ?? JSON.stringify(input.json ?? {})

/** Knowledge passages for the input from the agent's bases; a base deleted since is skipped. */
export async function passagesFor(services: Services, tenant: Tenant, kbIds: string[], text: string, opts: { recordGaps?: boolean } = {}): Promise<Passage[]> {
  const live: string[] = []
  for (const id of kbIds) {
    try {
      await services.knowledge.bases.get(tenant, id)
      live.push(id)
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'resource_not_found') throw err
    }
  }
  return live.length > 0 ? services.knowledge.search.passages(tenant, text, { knowledgeBaseIds: live, topK: 5, recordGaps: opts.recordGaps }) : []
}

export const sourceOf = (p: Passage): AiSource => ({ kind: 'passage', id: p.chunk_id, title: p.title, text: p.text })

/** The passages an answer cites, as POST /knowledge/search returns them. */
export function citationsOf(passages: Passage[], cited: string[]): KnowledgeSearchResultT[] {
  return cited
    .map((id) => passages.find((p) => p.chunk_id === id))
    .filter((p): p is Passage => !!p)
    .map((p) => ({
      score: p.score,
      excerpt: p.excerpt,
      citation: {
        document_id: p.document_id,
        knowledge_base_id: p.knowledge_base_id,
        title: p.title,
        source_url: p.source_url,
        chunk_id: p.chunk_id,
        start: p.start,
        end: p.end,
        heading_path: p.heading_path,
        page: p.page,
      },
    }))
}
