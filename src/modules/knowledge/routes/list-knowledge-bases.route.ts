import { defineRoute } from '../../../kernel/http/define-route.js'
import { KnowledgeBaseList, ListKnowledgeBasesQuery } from '../knowledge.schemas.js'

export const listKnowledgeBases = defineRoute({
  operationId: 'listKnowledgeBases',
  method: 'GET',
  url: '/knowledge/bases',
  module: 'knowledge',
  scope: 'read',
  summary: 'List knowledge bases',
  description: 'Newest first, with their document and chunk counts and the summary of their latest crawl.',
  schema: { querystring: ListKnowledgeBasesQuery, response: { 200: KnowledgeBaseList } },
  handler: ({ query, principal, services }) => services.knowledge.bases.list(principal, query),
})
