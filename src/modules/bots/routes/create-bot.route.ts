import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, CreateBotBody } from '../bots.schemas.js'

export const createBot = defineRoute({
  operationId: 'createBot',
  method: 'POST',
  url: '/bots',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Create a bot',
  description:
    'A draft: nobody talks to it until a version is published (`POST /bots/{id}/publish`). Knowledge bases must exist in the ' +
    'workspace (422 `unknown_knowledge_base`); a hand-off to a member needs an active member, a hand-off tag an existing inbox tag.',
  schema: { body: CreateBotBody, response: { 201: Bot } },
  errors: ['unknown_knowledge_base', 'assignee_not_member', 'unknown_tag'],
  handler: ({ body, principal, services }) => services.bots.bots.create(principal, body),
})
