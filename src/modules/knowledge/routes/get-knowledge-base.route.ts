import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, KnowledgeBase } from '../knowledge.schemas.js'

export const getKnowledgeBase = defineRoute({
  operationId: 'getKnowledgeBase',
  method: 'GET',
  url: '/knowledge/bases/{id}',
  module: 'knowledge',
  scope: 'read',
  summary: 'Get a knowledge base',
  schema: { params: IdParams, response: { 200: KnowledgeBase } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.knowledge.bases.get(principal, params.id),
})
