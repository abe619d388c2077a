import { defineRoute } from '../../../kernel/http/define-route.js'
import { KnowledgeSearch, SearchKnowledgeBody } from '../knowledge.search.schemas.js'

export const searchKnowledge = defineRoute({
  operationId: 'searchKnowledge',
  method: 'POST',
  url: '/knowledge/search',
  module: 'knowledge',
  scope: 'write',
  minRole: 'member', // a read sent as POST
  summary: 'Search knowledge bases, with citations and an optional answer',
  description:
    "Ranks the chunks of the workspace's knowledge bases (or those of `knowledge_base_ids`) with the database's " +
    'full-text index, re-ranked with embeddings when EMBEDDINGS_* is configured (`ranking: hybrid`, else `keyword`). ' +
    'Each result cites its document, chunk, offsets, heading path and page, with an excerpt whose matched words are ' +
    'marked «like this»; `score` is in [0, 1]. `answer: true` adds a short answer citing results as [n]. A question ' +
    'whose best score is below 0.5 is recorded as a knowledge gap (`gap`). An unknown or foreign base in `knowledge_base_ids` is 422 `invalid_reference`.',
  schema: { body: SearchKnowledgeBody, response: { 200: KnowledgeSearch } },
  errors: ['invalid_reference', 'ai_provider_error', 'ai_provider_unavailable', 'ai_provider_timeout'],
  handler: ({ body, principal, services }) => services.knowledge.search.search(principal, body),
})
