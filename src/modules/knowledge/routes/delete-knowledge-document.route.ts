import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedKnowledgeDocument, IdParams } from '../knowledge.schemas.js'

export const deleteKnowledgeDocument = defineRoute({
  operationId: 'deleteKnowledgeDocument',
  method: 'DELETE',
  url: '/knowledge/documents/{id}',
  module: 'knowledge',
  scope: 'write',
  summary: 'Delete a knowledge document',
  description: 'Removes the document with its chunks and index entries at once; search no longer finds it.',
  schema: { params: IdParams, response: { 200: DeletedKnowledgeDocument } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.knowledge.documents.delete(principal, params.id),
})
