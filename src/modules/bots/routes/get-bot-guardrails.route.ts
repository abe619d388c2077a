import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotGuardrailsSettings, IdParams } from '../bots.schemas.js'

export const getBotGuardrails = defineRoute({
  operationId: 'getBotGuardrails',
  method: 'GET',
  url: '/bots/{id}/guardrails',
  module: 'bots',
  scope: 'bots:read',
  summary: "Get a bot's guardrails",
  description: "The draft's guardrails; a version freezes them. See docs/bots.md for what each one does to messages and replies.",
  schema: { params: IdParams, response: { 200: BotGuardrailsSettings } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.bots.guardrails.get(principal, params.id),
})
