import { defineRoute } from '../../../kernel/http/define-route.js'
import { KnowledgeGapList, ListKnowledgeGapsQuery } from '../knowledge.search.schemas.js'

export const listKnowledgeGaps = defineRoute({
  operationId: 'listKnowledgeGaps',
  method: 'GET',
  url: '/knowledge/gaps',
  module: 'knowledge',
  scope: 'read',
  summary: 'List knowledge gaps: questions the knowledge could not answer',
  description:
    'Questions (searches, AI drafts) whose best result scored below 0.5, grouped by similarity. Filter by `status` ' +
    '(open, resolved) and `knowledge_base_id`; `order=recent` (last asked first, default) or `order=count` (most asked first).',
  schema: { querystring: ListKnowledgeGapsQuery, response: { 200: KnowledgeGapList } },
  errors: ['invalid_cursor'],
  handler: ({ query, principal, services }) => services.knowledge.gaps.list(principal, query),
})
