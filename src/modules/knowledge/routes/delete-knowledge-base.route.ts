import { defineRoute } from '../../../kernel/http/define-route.js'
import { DeletedKnowledgeBase, IdParams } from '../knowledge.schemas.js'

export const deleteKnowledgeBase = defineRoute({
  operationId: 'deleteKnowledgeBase',
  method: 'DELETE',
  url: '/knowledge/bases/{id}',
  module: 'knowledge',
  scope: 'write',
  summary: 'Delete a knowledge base',
  description: 'Deletes the base with its documents, chunks and index entries. The base answers 404 at once; a large ' + 'base (over 100 documents or 2,000 chunks) is emptied in the background.',
  schema: { params: IdParams, response: { 200: DeletedKnowledgeBase } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.knowledge.bases.delete(principal, params.id),
})
