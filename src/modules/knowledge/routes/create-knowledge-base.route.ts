import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateKnowledgeBaseBody, KnowledgeBase } from '../knowledge.schemas.js'

export const createKnowledgeBase = defineRoute({
  operationId: 'createKnowledgeBase',
  method: 'POST',
  url: '/knowledge/bases',
  module: 'knowledge',
  scope: 'write',
  summary: 'Create a knowledge base',
  description:
    '`language` (default `en`) drives stemming in the search index; `chunking` sets the chunk size (200–8000 ' + 'characters, default 1000) and overlap (at most half the size, default 150).',
  schema: { body: CreateKnowledgeBaseBody, response: { 201: KnowledgeBase } },
  handler: ({ body, principal, services }) => services.knowledge.bases.create(principal, body),
})
