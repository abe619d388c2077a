import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })
const BaseId = Type.String({ pattern: '^kb_[0-9A-Za-z]{1,40}$', examples: ['kb_01JD0000000000000000000000'] })

export const TOP_K = { default: 5, max: 50 }
/** The score a passage needs to answer a question, published for other modules (bots, inbox drafts). */
export { ANSWERED_THRESHOLD, isAnswered } from './knowledge.relevance.js'

export const SearchKnowledgeBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'The question or keywords; at least one word.' }),
    knowledge_base_ids: Type.Optional(Type.Array(BaseId, { minItems: 1, maxItems: 20, uniqueItems: true, description: 'Bases to search (default: every base of the workspace).' })),
    top_k: Type.Optional(Type.Integer({ minimum: 1, maximum: TOP_K.max, default: TOP_K.default, description: `Results to return (default ${TOP_K.default}).` })),
    min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Leave out results scoring below this (0–1).' })),
    filters: Type.Optional(
      Type.Object(
        {
          metadata: Type.Optional(
            Type.Record(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,40}$' }), Type.String({ maxLength: 500 }), {
              maxProperties: 10,
              description: 'Only chunks of documents whose metadata has each of these key = value pairs.',
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    answer: Type.Optional(Type.Boolean({ description: 'Also write a short answer from the returned passages, with [n] markers citing them.' })),
  },
  { additionalProperties: false, title: 'SearchKnowledgeBody' },
)
export type SearchKnowledgeBodyT = Static<typeof SearchKnowledgeBody>

export const KnowledgeCitation = Type.Object(
  {
    document_id: Type.String(),
    knowledge_base_id: Type.String(),
    title: Type.String(),
    source_url: Nullable(Type.String()),
    chunk_id: Type.String(),
    start: Type.Integer({ description: "Offset of the passage in the document's text (characters)." }),
    end: Type.Integer({ description: 'End offset (exclusive): text.slice(start, end) is the passage.' }),
    heading_path: Type.Array(Type.String()),
    page: Nullable(Type.Integer()),
  },
  { $id: 'KnowledgeCitation' },
)
export type KnowledgeCitationT = Static<typeof KnowledgeCitation>

export const KnowledgeSearchResult = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 1, description: 'Relevance in [0, 1] (see docs/knowledge.md "Search").' }),
    excerpt: Type.String({ description: 'Part of the passage around the matched words, each marked «like this».' }),
    citation: KnowledgeCitation,
  },
  { $id: 'KnowledgeSearchResult' },
)
export type KnowledgeSearchResultT = Static<typeof KnowledgeSearchResult>

/** A passage as `services.knowledge.search.passages` returns it, shown as POST /knowledge/search shows a result (bots and agents cite with it). */
export function searchResultOf(p: KnowledgeCitationT & { score: number; excerpt: string }): KnowledgeSearchResultT {
  const { score, excerpt, document_id, knowledge_base_id, title, source_url, chunk_id, start, end, heading_path, page } = p
  return { score, excerpt, citation: { document_id, knowledge_base_id, title, source_url, chunk_id, start, end, heading_path, page } }
}

export const KnowledgeSearch = Type.Object(
  {
    object: Type.Literal('knowledge_search'),
    query: Type.String(),
    ranking: Type.Union([Type.Literal('keyword'), Type.Literal('hybrid')], {
      description: '`hybrid` when an embeddings provider re-ranked the keyword candidates, else `keyword`.',
    }),
    results: Type.Array(KnowledgeSearchResult),
    answer: Nullable(
      Type.Object({
        content: Type.String({ description: 'The answer, with [n] markers: n is the 1-based position of a cited result.' }),
        citations: Type.Array(Type.Integer({ minimum: 0 }), { description: 'Indexes into `results` (0-based) of the passages the answer cites.' }),
        grounded: Type.Boolean({ description: 'False when nothing relevant was found and the answer says so.' }),
      }),
    ),
    gap: Nullable(Type.Object({ id: Type.String() }, { description: 'The knowledge gap this question was recorded in (best score below the threshold).' })),
  },
  { $id: 'KnowledgeSearch' },
)
export type KnowledgeSearchT = Static<typeof KnowledgeSearch>

export const KnowledgeGap = Type.Object(
  {
    id: Type.String({ examples: ['gap_01JD0000000000000000000000'] }),
    object: Type.Literal('knowledge_gap'),
    question: Type.String({ description: 'The representative question (the first of the group).' }),
    examples: Type.Array(Type.String(), { description: 'Up to 5 distinct questions of the group, oldest first.' }),
    count: Type.Integer({ description: 'Questions recorded in the group.' }),
    first_seen_at: DateTime,
    last_seen_at: DateTime,
    best_score: Type.Number({ description: 'Best result score any of its questions got (0–1).' }),
    knowledge_base_ids: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('open'), Type.Literal('resolved')]),
    resolved_at: Nullable(DateTime),
    resolved_by_document_id: Nullable(Type.String({ description: 'The ready document that answered it.' })),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'KnowledgeGap' },
)
export type KnowledgeGapT = Static<typeof KnowledgeGap>

export const KNOWLEDGE_GAP_EXAMPLE: KnowledgeGapT = {
  id: 'gap_01JD0000000000000000000000',
  object: 'knowledge_gap',
  question: 'Can I pay by bank transfer?',
  examples: ['Can I pay by bank transfer?', 'Do you accept wire transfers for payment?'],
  count: 7,
  first_seen_at: '2026-11-25T10:00:00.000Z',
  last_seen_at: '2026-11-26T15:30:00.000Z',
  best_score: 0.21,
  knowledge_base_ids: ['kb_01JD0000000000000000000000'],
  status: 'open',
  resolved_at: null,
  resolved_by_document_id: null,
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-26T15:30:00.000Z',
}

export const ListKnowledgeGapsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('resolved')])),
    knowledge_base_id: Type.Optional(BaseId),
    order: Type.Optional(Type.Union([Type.Literal('recent'), Type.Literal('count')], { default: 'recent', description: '`recent`: last asked first (default); `count`: most asked first.' })),
  },
  { additionalProperties: false },
)
export type ListKnowledgeGapsQueryT = Static<typeof ListKnowledgeGapsQuery>
export const KnowledgeGapList = Page(KnowledgeGap, 'KnowledgeGap')
