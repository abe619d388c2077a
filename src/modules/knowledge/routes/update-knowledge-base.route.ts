import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, KnowledgeBase, UpdateKnowledgeBaseBody } from '../knowledge.schemas.js'

export const updateKnowledgeBase = defineRoute({
  operationId: 'updateKnowledgeBase',
  method: 'PATCH',
  url: '/knowledge/bases/{id}',
  module: 'knowledge',
  scope: 'write',
  summary: 'Update a knowledge base',
  description: 'Changing `language` or `chunking` re-processes every ready document in the background with the new ' + 'settings; until each is done its previous chunks stay searchable.',
  schema: { params: IdParams, body: UpdateKnowledgeBaseBody, response: { 200: KnowledgeBase } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.knowledge.bases.update(principal, params.id, body),
})
