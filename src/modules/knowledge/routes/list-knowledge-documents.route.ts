import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, KnowledgeDocumentList, ListKnowledgeDocumentsQuery } from '../knowledge.schemas.js'

export const listKnowledgeDocuments = defineRoute({
  operationId: 'listKnowledgeDocuments',
  method: 'GET',
  url: '/knowledge/bases/{id}/documents',
  module: 'knowledge',
  scope: 'read',
  summary: 'List the documents of a knowledge base',
  description: 'Newest first; `status` filters on queued, processing, ready or failed.',
  schema: { params: IdParams, querystring: ListKnowledgeDocumentsQuery, response: { 200: KnowledgeDocumentList } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.knowledge.documents.list(principal, params.id, query),
})
