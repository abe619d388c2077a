import { defineRoute } from '../../../kernel/http/define-route.js'
import { UpdateBotGuardrailsBody } from '../guardrails/guardrails.schemas.js'
import { BotGuardrailsSettings, IdParams } from '../bots.schemas.js'

export const updateBotGuardrails = defineRoute({
  operationId: 'updateBotGuardrails',
  method: 'PATCH',
  url: '/bots/{id}/guardrails',
  module: 'bots',
  scope: 'bots:write',
  summary: "Update a bot's guardrails",
  description: 'Fields sent replace those fields (lists whole); values are checked (422 with a pointer to the bad entry).',
  schema: { params: IdParams, body: UpdateBotGuardrailsBody, response: { 200: BotGuardrailsSettings } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.bots.guardrails.update(principal, params.id, body),
})
