import { defineRoute } from '../../../kernel/http/define-route.js'
import { GetKnowledgeDocumentQuery, IdParams, KnowledgeDocumentDetail } from '../knowledge.schemas.js'

export const getKnowledgeDocument = defineRoute({
  operationId: 'getKnowledgeDocument',
  method: 'GET',
  url: '/knowledge/documents/{id}',
  module: 'knowledge',
  scope: 'read',
  summary: 'Get a knowledge document',
  description:
    '`include=chunks` adds its chunks in order, each with `start`/`end` offsets into the extracted text, heading ' + 'path and page; `include=text` adds that text (`include=chunks,text` both).',
  schema: { params: IdParams, querystring: GetKnowledgeDocumentQuery, response: { 200: KnowledgeDocumentDetail } },
  errors: ['resource_not_found'],
  handler: ({ params, query, principal, services }) => services.knowledge.documents.get(principal, params.id, query.include),
})
